/**
 * Word lists for the demo catalogue: UK places, people, and the kinds of course providers the
 * marketplace lists ("verticals"). Plain data, no logic beyond tiny helpers.
 *
 * Every image the catalogue references lives under /images/… (served from public/images by the
 * site); IMAGE_PATHS lists them all so the artwork can be produced to match.
 */

export interface CategorySpec { id: string; slug: string; name: string }

export const CATEGORIES: CategorySpec[] = [
  { id: 'cat_pottery', slug: 'pottery-ceramics', name: 'Pottery & Ceramics' },
  { id: 'cat_coding', slug: 'coding-tech', name: 'Coding & Tech' },
  { id: 'cat_first_aid', slug: 'first-aid-safety', name: 'First Aid & Safety' },
  { id: 'cat_yoga', slug: 'yoga-wellbeing', name: 'Yoga & Wellbeing' },
  { id: 'cat_languages', slug: 'languages', name: 'Languages' },
  { id: 'cat_cookery', slug: 'cookery-baking', name: 'Cookery & Baking' },
  { id: 'cat_photography', slug: 'photography-film', name: 'Photography & Film' },
  { id: 'cat_music', slug: 'music', name: 'Music' },
  { id: 'cat_driving', slug: 'driving-motoring', name: 'Driving & Motoring' },
  { id: 'cat_business', slug: 'business-skills', name: 'Business Skills' },
  { id: 'cat_arts', slug: 'arts-crafts', name: 'Arts & Crafts' },
  { id: 'cat_dance', slug: 'dance-fitness', name: 'Dance & Fitness' },
  { id: 'cat_garden', slug: 'home-garden', name: 'Home & Garden' },
];

export interface City {
  name: string;
  /** Outward codes that exist in the city. */
  outward: string[];
  lat: number;
  lng: number;
  /** A phone prefix from Ofcom's drama ranges, completed with three random digits. */
  phone: string;
  areas: string[];
}

export const CITIES: City[] = [
  { name: 'London', outward: ['E8', 'EC1V', 'N1', 'SE1', 'SE15', 'SW9', 'W1F', 'NW1', 'E2'], lat: 51.5072, lng: -0.1276, phone: '020 7946 0', areas: ['Hackney', 'Shoreditch', 'Islington', 'Peckham', 'Brixton', 'Camden', 'Soho', 'Bermondsey', 'Walthamstow', 'Deptford'] },
  { name: 'Manchester', outward: ['M1', 'M4', 'M15', 'M20'], lat: 53.4808, lng: -2.2426, phone: '0161 496 0', areas: ['Ancoats', 'Northern Quarter', 'Didsbury', 'Chorlton', 'Salford Quays'] },
  { name: 'Birmingham', outward: ['B1', 'B5', 'B13', 'B18'], lat: 52.4862, lng: -1.8904, phone: '0121 496 0', areas: ['Digbeth', 'Jewellery Quarter', 'Moseley', 'Edgbaston', 'Kings Heath'] },
  { name: 'Leeds', outward: ['LS1', 'LS6', 'LS7', 'LS11'], lat: 53.8008, lng: -1.5491, phone: '0113 496 0', areas: ['Headingley', 'Chapel Allerton', 'Holbeck', 'Kirkstall'] },
  { name: 'Bristol', outward: ['BS1', 'BS3', 'BS6', 'BS8'], lat: 51.4545, lng: -2.5879, phone: '0117 496 0', areas: ['Clifton', 'Stokes Croft', 'Bedminster', 'Harbourside', 'Redland'] },
  { name: 'Edinburgh', outward: ['EH1', 'EH3', 'EH6', 'EH7'], lat: 55.9533, lng: -3.1883, phone: '0131 496 0', areas: ['Leith', 'Stockbridge', 'Old Town', 'Bruntsfield', 'Portobello'] },
  { name: 'Glasgow', outward: ['G1', 'G3', 'G12', 'G41'], lat: 55.8642, lng: -4.2518, phone: '0141 496 0', areas: ['Merchant City', 'Finnieston', 'West End', 'Shawlands'] },
  { name: 'Cardiff', outward: ['CF10', 'CF11', 'CF24'], lat: 51.4816, lng: -3.1791, phone: '029 2018 0', areas: ['Cathays', 'Pontcanna', 'Roath', 'Cardiff Bay'] },
  { name: 'Liverpool', outward: ['L1', 'L3', 'L8', 'L17'], lat: 53.4084, lng: -2.9916, phone: '0151 496 0', areas: ['Baltic Triangle', 'Ropewalks', 'Toxteth', 'Aigburth'] },
  { name: 'Newcastle upon Tyne', outward: ['NE1', 'NE2', 'NE6'], lat: 54.9783, lng: -1.6178, phone: '0191 498 0', areas: ['Ouseburn', 'Jesmond', 'Heaton', 'Quayside'] },
  { name: 'Sheffield', outward: ['S1', 'S2', 'S7', 'S11'], lat: 53.3811, lng: -1.4701, phone: '0114 496 0', areas: ['Kelham Island', 'Sharrow', 'Nether Edge', 'Ecclesall'] },
  { name: 'Nottingham', outward: ['NG1', 'NG5', 'NG7'], lat: 52.9548, lng: -1.1581, phone: '0115 496 0', areas: ['Hockley', 'Sherwood', 'Lenton', 'West Bridgford'] },
  { name: 'Brighton', outward: ['BN1', 'BN2', 'BN3'], lat: 50.8225, lng: -0.1372, phone: '07700 900', areas: ['North Laine', 'Kemptown', 'Hove', 'Preston Park'] },
  { name: 'Cambridge', outward: ['CB1', 'CB2', 'CB4'], lat: 52.2053, lng: 0.1218, phone: '07700 900', areas: ['Mill Road', 'Chesterton', 'Newnham'] },
  { name: 'Oxford', outward: ['OX1', 'OX2', 'OX4'], lat: 51.752, lng: -1.2577, phone: '07700 900', areas: ['Jericho', 'Cowley', 'Summertown'] },
  { name: 'York', outward: ['YO1', 'YO10', 'YO31'], lat: 53.959, lng: -1.0815, phone: '07700 900', areas: ['Bishophill', 'Fishergate', 'Clifton', 'The Groves'] },
  { name: 'Bath', outward: ['BA1', 'BA2'], lat: 51.3811, lng: -2.359, phone: '07700 900', areas: ['Widcombe', 'Larkhall', 'Walcot'] },
  { name: 'Norwich', outward: ['NR1', 'NR2', 'NR3'], lat: 52.6309, lng: 1.2974, phone: '07700 900', areas: ['Golden Triangle', 'Norwich Lanes', 'Magdalen Street'] },
  { name: 'Belfast', outward: ['BT1', 'BT7', 'BT9'], lat: 54.5973, lng: -5.9301, phone: '028 9018 0', areas: ['Cathedral Quarter', 'Queen\u2019s Quarter', 'Lisburn Road'] },
  { name: 'Leicester', outward: ['LE1', 'LE2'], lat: 52.6369, lng: -1.1398, phone: '07700 900', areas: ['Cultural Quarter', 'Clarendon Park'] },
  { name: 'Exeter', outward: ['EX1', 'EX2', 'EX4'], lat: 50.7184, lng: -3.5339, phone: '07700 900', areas: ['Quayside', 'St Thomas', 'Pennsylvania'] },
  { name: 'Southampton', outward: ['SO14', 'SO15', 'SO17'], lat: 50.9097, lng: -1.4044, phone: '07700 900', areas: ['Ocean Village', 'Portswood', 'Shirley'] },
  { name: 'Aberdeen', outward: ['AB10', 'AB11', 'AB24'], lat: 57.1497, lng: -2.0943, phone: '07700 900', areas: ['Old Aberdeen', 'Rosemount', 'Footdee'] },
  { name: 'Plymouth', outward: ['PL1', 'PL4'], lat: 50.3755, lng: -4.1427, phone: '07700 900', areas: ['Barbican', 'Stonehouse', 'Mutley'] },
  { name: 'Canterbury', outward: ['CT1', 'CT2'], lat: 51.2802, lng: 1.0789, phone: '07700 900', areas: ['Westgate', 'Wincheap'] },
];

export const STREETS = [
  'High Street', 'Church Lane', 'Station Road', 'Mill Lane', 'Victoria Road', 'King Street', 'Queen Street',
  'Market Place', 'Albert Road', 'Park Road', 'Canal Street', 'Chapel Street', 'Bridge Street', 'Castle Street',
  'Green Lane', 'Orchard Road', 'Wharf Road', 'Granary Yard', 'Foundry Lane', 'Cotton Street', 'Tannery Way',
];
export const BUILDINGS = [
  'The Old Dairy', 'Unit 3, Riverside Works', 'The Coach House', 'Studio 12, The Mill', 'First Floor, Corn Exchange',
  'The Chapel Rooms', 'Unit 7, Brewery Yard', 'The Print Works', 'Arch 14', 'The Courtyard Studios',
];

/** Inward-code letters never use C I K M O V. */
export const POSTCODE_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

export const FIRST_NAMES = [
  'Olivia', 'Amelia', 'Isla', 'Ava', 'Mia', 'Sophie', 'Grace', 'Freya', 'Aisha', 'Priya', 'Zara', 'Chloe', 'Ellie',
  'Hannah', 'Niamh', 'Siobhan', 'Megan', 'Ruth', 'Fatima', 'Maya', 'Oliver', 'George', 'Harry', 'Jack', 'Noah',
  'Leo', 'Arthur', 'Alfie', 'Mohammed', 'Rhys', 'Callum', 'Euan', 'Dylan', 'Samir', 'Tom', 'James', 'Ben', 'Joe',
  'Kwame', 'Tariq', 'Declan', 'Finn', 'Owen', 'Imran', 'Ravi', 'Lewis', 'Gareth', 'Siân', 'Bethan', 'Kirsty',
];
export const SURNAMES = [
  'Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Davies', 'Evans', 'Thomas', 'Roberts', 'Patel',
  'Khan', 'Hughes', 'Walker', 'Wright', 'Robinson', 'Thompson', 'White', 'Edwards', 'Green', 'Hall', 'Wood',
  'Murphy', 'Campbell', 'MacDonald', 'Stewart', 'Reid', 'Okafor', 'Mensah', 'Begum', 'Ahmed', 'Clarke', 'Lewis',
  'Harris', 'Morgan', 'Price', 'Kelly', 'O\u2019Brien', 'Chen', 'Singh', 'Nowak', 'Ali', 'Fraser', 'Doyle',
];
export const PLACE_WORDS = [
  'Riverside', 'Northgate', 'Millbrook', 'Oakfield', 'Harbour', 'Meadow', 'Kingsway', 'Foundry', 'Lantern',
  'Bramble', 'Copper', 'Willow', 'Heron', 'Granite', 'Saltmarsh', 'Ashdown', 'Elmwood', 'Canal Side', 'Highfield',
];

export interface CourseIdea {
  name: string;
  /** Typical length in minutes of one session. */
  minutes: number;
  level?: string | null;
}

export interface Vertical {
  key: string;
  categoryId: string;
  /** Educator name patterns: {place} is a city area or place word, {surname} a surname. */
  names: string[];
  courses: CourseIdea[];
  keywords: (string | null)[];
  lessons: string[];
  sections: string[];
  addOns: { name: string; price: number; description?: string }[];
  /** Typical single-space price range in pence. */
  price: [number, number];
  faqs: { question: string; answer: string }[];
  /** Sentences about what this kind of provider does; used in bios and descriptions. */
  blurbs: string[];
  /** What learners go home with; used in course descriptions. */
  outcomes: string[];
  socialHandle: string;
}

const COMMON_FAQS = [
  { question: 'What is your cancellation policy?', answer: '<p>You can cancel free of charge up to the date shown at checkout. After that we can usually <strong>move you to another date</strong> instead.</p>' },
  { question: 'Is the venue accessible?', answer: '<p>Our main room is on the ground floor with step-free access and an accessible toilet. Please tell us about any <em>access needs</em> when you book.</p>' },
  { question: 'Can I buy this as a gift?', answer: '<p>Yes. Send us an enquiry and we will arrange a gift voucher that can be used for any date.</p>' },
];

export const VERTICALS: Vertical[] = [
  {
    key: 'pottery', categoryId: 'cat_pottery',
    names: ['{place} Pottery Studio', '{place} Clay Works', 'The {place} Ceramics Workshop', '{surname} Ceramics', 'Kiln & Co. {place}'],
    courses: [
      { name: 'Beginners Wheel Throwing', minutes: 150, level: 'Beginner' }, { name: 'Handbuilding with Clay', minutes: 120, level: 'Beginner' },
      { name: 'Glazing Masterclass', minutes: 180, level: 'Intermediate' }, { name: 'Make Your Own Mug', minutes: 120, level: 'All' },
      { name: 'Pottery Date Night', minutes: 120, level: 'All' }, { name: 'Raku Firing Experience', minutes: 300, level: 'Intermediate' },
      { name: 'Ten-Week Ceramics Course', minutes: 150, level: 'Beginner' }, { name: 'Slab Built Planters', minutes: 150 },
      { name: 'Kintsugi Repair Workshop', minutes: 180, level: 'All' }, { name: 'Porcelain Throwing Intensive', minutes: 360, level: 'Advanced' },
      { name: 'Family Clay Morning', minutes: 90, level: 'All' }, { name: 'Sculpting Animal Figures', minutes: 150 },
    ],
    keywords: ['workshop', 'class', null],
    lessons: ['Wedging and centring', 'Opening and pulling walls', 'Trimming and turning', 'Handles and spouts', 'Underglaze decoration', 'Firing explained'],
    sections: ['Getting started', 'Throwing', 'Finishing', 'Glazing'],
    addOns: [{ name: 'Extra clay (5 kg)', price: 1200 }, { name: 'Glaze and firing of one extra piece', price: 800 }, { name: 'Apron to keep', price: 1500 }],
    price: [3500, 9500],
    faqs: [
      { question: 'When can I collect my pots?', answer: '<p>Pieces are fired and glazed within <strong>three weeks</strong>. We will email you when they are ready to collect.</p>' },
      { question: 'What should I wear?', answer: '<p>Clothes you do not mind getting muddy, short nails and hair tied back. Aprons are provided.</p>' },
    ],
    blurbs: [
      'We are a friendly open-access pottery studio with eight wheels, two kilns and a lot of tea.',
      'Our classes are small, so you get plenty of time at the wheel with a working potter beside you.',
      'Every piece you make is trimmed, glazed and fired for you to take home.',
    ],
    outcomes: ['centre clay on the wheel', 'throw a cylinder and a bowl', 'trim a foot ring', 'choose and apply glazes'],
    socialHandle: 'pottery',
  },
  {
    key: 'coding', categoryId: 'cat_coding',
    names: ['{place} Code School', '{place} Coding Bootcamp', 'Byte {place}', '{surname} Tech Academy', 'Northern Devs {place}'],
    courses: [
      { name: 'Intro to Web Development', minutes: 180, level: 'Beginner' }, { name: 'JavaScript Fundamentals', minutes: 180, level: 'Beginner' },
      { name: 'Python for Beginners', minutes: 180, level: 'Beginner' }, { name: 'React in a Weekend', minutes: 420, level: 'Intermediate' },
      { name: 'Data Analysis with Python', minutes: 240, level: 'Intermediate' }, { name: 'SQL for Analysts', minutes: 180, level: 'Beginner' },
      { name: 'Cloud Foundations on AWS', minutes: 420, level: 'Intermediate' }, { name: 'Full-Stack Bootcamp', minutes: 420, level: 'Advanced' },
      { name: 'Coding for Kids', minutes: 120, level: 'All' }, { name: 'Git and GitHub Essentials', minutes: 120, level: 'All' },
      { name: 'Machine Learning Primer', minutes: 240, level: 'Advanced' }, { name: 'Accessible Front-End Development', minutes: 180, level: 'Intermediate' },
    ],
    keywords: ['bootcamp', 'class', null],
    lessons: ['Setting up your editor', 'Variables and types', 'Functions', 'Working with data', 'Testing your code', 'Deploying your project', 'Debugging techniques', 'Version control'],
    sections: ['Week 1: Foundations', 'Week 2: Building', 'Week 3: Data', 'Week 4: Shipping'],
    addOns: [{ name: 'One-to-one mentoring hour', price: 6000 }, { name: 'Certificate of completion (printed)', price: 1500 }],
    price: [4500, 29500],
    faqs: [
      { question: 'Do I need my own laptop?', answer: '<p>Yes, please bring a laptop that can run a modern browser. <strong>Loan laptops</strong> are available on request.</p>' },
      { question: 'Will I get a certificate?', answer: '<p>Every learner who completes the projects receives a digital certificate.</p>' },
    ],
    blurbs: [
      'We teach practical, job-ready coding to career changers and curious beginners.',
      'Our instructors are working developers who review every line of your project code.',
      'Classes run in the evening and at weekends, online and in our city-centre classroom.',
    ],
    outcomes: ['write and run your own programs', 'build and deploy a small web app', 'read documentation with confidence', 'use Git to share your work'],
    socialHandle: 'code',
  },
  {
    key: 'first-aid', categoryId: 'cat_first_aid',
    names: ['{place} First Aid Training', '{surname} Safety Training', 'Lifesavers {place}', '{place} Emergency Skills'],
    courses: [
      { name: 'Emergency First Aid at Work', minutes: 360, level: 'All' }, { name: 'First Aid at Work', minutes: 1260, level: 'All' },
      { name: 'Paediatric First Aid', minutes: 720, level: 'All' }, { name: 'Mental Health First Aid', minutes: 840, level: 'All' },
      { name: 'Fire Marshal Training', minutes: 240, level: 'All' }, { name: 'Baby and Child First Aid for Parents', minutes: 120, level: 'All' },
      { name: 'Defibrillator Awareness', minutes: 90, level: 'All' }, { name: 'Outdoor First Aid', minutes: 960, level: 'Intermediate' },
      { name: 'Manual Handling', minutes: 180, level: 'All' }, { name: 'Food Hygiene Level 2', minutes: 360, level: 'All' },
    ],
    keywords: [null, 'course', 'training'],
    lessons: ['Primary survey', 'CPR and defibrillation', 'Choking', 'Bleeding and shock', 'Burns and scalds', 'Recovery position'],
    sections: ['Assessment', 'Life-saving skills', 'Minor injuries'],
    addOns: [{ name: 'Printed manual', price: 900 }, { name: 'Pocket face shield', price: 500 }],
    price: [4500, 22500],
    faqs: [
      { question: 'Is the certificate recognised?', answer: '<p>Our workplace courses meet <strong>HSE guidance</strong> and certificates are valid for three years.</p>' },
      { question: 'Can you train our team on site?', answer: '<p>Yes, we travel to workplaces across the UK. Send us an enquiry with your team size.</p>' },
    ],
    blurbs: [
      'We are paramedics and nurses who teach first aid the way it happens in real life.',
      'Courses are hands-on with modern manikins and training defibrillators.',
      'We train individuals, schools and businesses, at our centre or at your workplace.',
    ],
    outcomes: ['assess a casualty calmly', 'perform CPR and use a defibrillator', 'deal with choking, bleeding and burns', 'complete an accident report'],
    socialHandle: 'firstaid',
  },
  {
    key: 'yoga', categoryId: 'cat_yoga',
    names: ['{place} Yoga', 'The {place} Yoga Room', '{surname} Yoga & Pilates', 'Breathe {place}', '{place} Wellbeing Studio'],
    courses: [
      { name: 'Beginners Yoga Course', minutes: 75, level: 'Beginner' }, { name: 'Vinyasa Flow', minutes: 60, level: 'Intermediate' },
      { name: 'Yin Yoga and Sound Bath', minutes: 90, level: 'All' }, { name: 'Pregnancy Yoga', minutes: 75, level: 'All' },
      { name: 'Mindfulness in Eight Weeks', minutes: 120, level: 'All' }, { name: 'Yoga for Runners', minutes: 60, level: 'Intermediate' },
      { name: 'Restorative Yoga Retreat Day', minutes: 360, level: 'All' }, { name: 'Pilates Mat Foundations', minutes: 60, level: 'Beginner' },
      { name: 'Breathwork Workshop', minutes: 120, level: 'All' }, { name: 'Ashtanga Led Primary', minutes: 90, level: 'Advanced' },
    ],
    keywords: ['class', null, 'workshop'],
    lessons: ['Breathing basics', 'Sun salutations', 'Standing poses', 'Balance', 'Twists and folds', 'Relaxation'],
    sections: ['Foundations', 'Building a practice', 'Going deeper'],
    addOns: [{ name: 'Mat hire', price: 300 }, { name: 'Herbal tea and cake', price: 450 }],
    price: [1200, 6500],
    faqs: [
      { question: 'Do I need to bring a mat?', answer: '<p>Mats, blocks and blankets are provided, but you are welcome to bring your own.</p>' },
    ],
    blurbs: [
      'A calm, unhurried studio for every body and every level.',
      'Our teachers are Yoga Alliance registered and keep classes small.',
      'We believe yoga should be accessible: concession places are always available.',
    ],
    outcomes: ['move with your breath', 'build strength and flexibility', 'find a daily practice that fits', 'relax deeply'],
    socialHandle: 'yoga',
  },
  {
    key: 'languages', categoryId: 'cat_languages',
    names: ['{place} Language School', '{place} Language Centre', 'Polyglot {place}', '{surname} Languages'],
    courses: [
      { name: 'Spanish for Beginners', minutes: 90, level: 'Beginner' }, { name: 'Conversational French', minutes: 90, level: 'Intermediate' },
      { name: 'Italian Evening Class', minutes: 90, level: 'Beginner' }, { name: 'German Grammar Intensive', minutes: 180, level: 'Intermediate' },
      { name: 'Japanese Taster Session', minutes: 120, level: 'Beginner' }, { name: 'British Sign Language Level 1', minutes: 120, level: 'Beginner' },
      { name: 'Mandarin for Business', minutes: 120, level: 'Intermediate' }, { name: 'Welsh for Beginners', minutes: 90, level: 'Beginner' },
      { name: 'Portuguese Conversation Club', minutes: 60, level: 'All' }, { name: 'IELTS Preparation', minutes: 180, level: 'Advanced' },
      { name: 'Arabic Script in a Day', minutes: 360, level: 'Beginner' },
    ],
    keywords: ['class', 'course', null],
    lessons: ['Greetings and introductions', 'Numbers and time', 'Ordering food', 'Travel phrases', 'Past tense', 'Conversation practice'],
    sections: ['Unit 1', 'Unit 2', 'Unit 3', 'Unit 4'],
    addOns: [{ name: 'Course book', price: 2400 }, { name: 'Placement test', price: 1500 }],
    price: [2000, 24000],
    faqs: [
      { question: 'How do I know my level?', answer: '<p>Take our free ten-minute <strong>placement test</strong> or ask a teacher to call you.</p>' },
    ],
    blurbs: [
      'Native-speaker teachers, small groups and a lot of speaking from the very first lesson.',
      'We follow the CEFR levels so you always know where you are and what comes next.',
      'Classes run online and in person, mornings, evenings and weekends.',
    ],
    outcomes: ['hold a simple conversation', 'understand everyday phrases', 'read menus and signs', 'write short messages'],
    socialHandle: 'lingo',
  },
  {
    key: 'cookery', categoryId: 'cat_cookery',
    names: ['{place} Cookery School', 'The {place} Kitchen', '{surname}\u2019s Cookery School', '{place} Baking Academy'],
    courses: [
      { name: 'Sourdough Bread Baking', minutes: 240, level: 'Beginner' }, { name: 'Fresh Pasta Making', minutes: 180, level: 'All' },
      { name: 'Indian Street Food', minutes: 180, level: 'All' }, { name: 'Knife Skills', minutes: 150, level: 'Beginner' },
      { name: 'Thai Curry Masterclass', minutes: 180, level: 'Intermediate' }, { name: 'French Patisserie', minutes: 300, level: 'Advanced' },
      { name: 'Vegan Comfort Food', minutes: 180, level: 'All' }, { name: 'Kids Baking Club', minutes: 90, level: 'All' },
      { name: 'Sushi Workshop', minutes: 180, level: 'Intermediate' }, { name: 'Fish Preparation', minutes: 180, level: 'Intermediate' },
      { name: 'Cake Decorating', minutes: 240, level: 'Beginner' }, { name: 'Dim Sum Day', minutes: 300, level: 'Intermediate' },
    ],
    keywords: ['class', 'workshop', null],
    lessons: ['Kitchen safety', 'Mise en place', 'Doughs and batters', 'Sauces', 'Plating', 'Storing and freezing'],
    sections: ['Basics', 'Techniques', 'Recipes'],
    addOns: [{ name: 'Take-home ingredient kit', price: 1200 }, { name: 'Wine pairing', price: 1500 }, { name: 'Branded apron', price: 1800 }],
    price: [4500, 14500],
    faqs: [
      { question: 'Can you cater for allergies?', answer: '<p>Yes. Tell us about <strong>allergies and dietary needs</strong> when you book and we will adapt the recipes.</p>' },
      { question: 'Do we eat what we cook?', answer: '<p>Absolutely. Every class ends around the table, and you take leftovers home.</p>' },
    ],
    blurbs: [
      'A working kitchen with twelve cooking stations, run by chefs who love to teach.',
      'We cook seasonal food with ingredients from local farms and markets.',
      'Everything is included: ingredients, aprons, recipes and a proper sit-down meal.',
    ],
    outcomes: ['cook three dishes from scratch', 'handle a chef\u2019s knife safely', 'understand the key techniques', 'recreate every recipe at home'],
    socialHandle: 'kitchen',
  },
  {
    key: 'photography', categoryId: 'cat_photography',
    names: ['{place} Photography School', '{surname} Photography Workshops', 'Aperture {place}', '{place} Camera Club Courses'],
    courses: [
      { name: 'Get Off Auto: Camera Basics', minutes: 180, level: 'Beginner' }, { name: 'Street Photography Walk', minutes: 180, level: 'All' },
      { name: 'Portrait Lighting', minutes: 240, level: 'Intermediate' }, { name: 'Landscape Photography Day', minutes: 420, level: 'Intermediate' },
      { name: 'Lightroom Editing', minutes: 180, level: 'Beginner' }, { name: 'Smartphone Photography', minutes: 120, level: 'All' },
      { name: 'Night and Astro Photography', minutes: 240, level: 'Advanced' }, { name: 'Film Photography and Darkroom', minutes: 300, level: 'All' },
      { name: 'Product Photography for Small Businesses', minutes: 240, level: 'Intermediate' },
    ],
    keywords: ['workshop', 'course', null],
    lessons: ['Exposure triangle', 'Composition', 'Working with light', 'Focus and depth of field', 'Editing workflow', 'Printing'],
    sections: ['Camera basics', 'Creative control', 'Editing'],
    addOns: [{ name: 'Camera hire', price: 2500 }, { name: 'Printed A3 portfolio', price: 2000 }],
    price: [4000, 16500],
    faqs: [
      { question: 'What camera do I need?', answer: '<p>Any camera with manual settings. <em>Smartphone</em> courses need only your phone.</p>' },
    ],
    blurbs: [
      'We run relaxed, practical photography courses in the studio and out on location.',
      'Our tutors are working photographers with decades of commissions between them.',
      'Groups are capped at eight so everyone gets one-to-one feedback.',
    ],
    outcomes: ['shoot confidently in manual mode', 'compose stronger images', 'use natural and flash light', 'edit a set of finished photos'],
    socialHandle: 'photo',
  },
  {
    key: 'music', categoryId: 'cat_music',
    names: ['{place} Music Academy', '{place} School of Music', '{surname} Music Lessons', 'The {place} Music Room'],
    courses: [
      { name: 'Guitar for Absolute Beginners', minutes: 60, level: 'Beginner' }, { name: 'Piano Foundations', minutes: 60, level: 'Beginner' },
      { name: 'Singing Confidence Workshop', minutes: 120, level: 'All' }, { name: 'Music Production with Ableton', minutes: 180, level: 'Intermediate' },
      { name: 'Ukulele Group Class', minutes: 60, level: 'All' }, { name: 'DJ Skills', minutes: 120, level: 'Beginner' },
      { name: 'Grade 5 Music Theory', minutes: 90, level: 'Intermediate' }, { name: 'Drum Kit Taster', minutes: 60, level: 'Beginner' },
      { name: 'Community Choir', minutes: 90, level: 'All' }, { name: 'Songwriting Masterclass', minutes: 240, level: 'Advanced' },
    ],
    keywords: ['lesson', 'class', null],
    lessons: ['Holding your instrument', 'First chords', 'Rhythm and timing', 'Reading notation', 'Playing with others', 'Your first song'],
    sections: ['Getting started', 'Technique', 'Repertoire'],
    addOns: [{ name: 'Instrument hire', price: 1500 }, { name: 'Practice room hour', price: 1000 }],
    price: [1500, 12000],
    faqs: [
      { question: 'Do I need my own instrument?', answer: '<p>Not for your first lesson: we have instruments to borrow in the studio.</p>' },
    ],
    blurbs: [
      'Friendly lessons for every age and stage, from first notes to graded exams.',
      'Our soundproofed studios have pianos, drum kits, amps and recording gear.',
      'Group classes keep costs down and make practice a lot more fun.',
    ],
    outcomes: ['play a complete song', 'keep time with others', 'read simple notation', 'practise effectively at home'],
    socialHandle: 'music',
  },
  {
    key: 'driving-theory', categoryId: 'cat_driving',
    names: ['{place} Driving Theory', '{surname} School of Motoring', 'Pass First Time {place}', '{place} Road Skills'],
    courses: [
      { name: 'Theory Test Crash Course', minutes: 360, level: 'Beginner' }, { name: 'Hazard Perception Practice', minutes: 120, level: 'Beginner' },
      { name: 'Pass Plus Classroom', minutes: 240, level: 'Intermediate' }, { name: 'Motorway Confidence Workshop', minutes: 180, level: 'Intermediate' },
      { name: 'Highway Code Refresher', minutes: 120, level: 'All' }, { name: 'Eco Driving Skills', minutes: 120, level: 'All' },
      { name: 'Car Maintenance Basics', minutes: 180, level: 'All' },
    ],
    keywords: ['course', null],
    lessons: ['Road signs', 'Rules of the road', 'Vulnerable road users', 'Hazard perception clips', 'Mock test'],
    sections: ['Theory', 'Hazard perception', 'Mock tests'],
    addOns: [{ name: 'Official theory book', price: 1299 }],
    price: [2500, 9900],
    faqs: [
      { question: 'Does this include the DVSA test fee?', answer: '<p>No. You book and pay for the theory test itself on GOV.UK.</p>' },
    ],
    blurbs: [
      'We help learner drivers pass their theory test first time.',
      'Sessions use the official question bank and real hazard perception clips.',
      'Our instructors are DVSA approved and patient with nervous learners.',
    ],
    outcomes: ['know the Highway Code', 'spot developing hazards', 'pass mock tests comfortably', 'feel ready for test day'],
    socialHandle: 'drive',
  },
  {
    key: 'business', categoryId: 'cat_business',
    names: ['{place} Business Skills', '{surname} Training & Development', '{place} Leadership Academy', 'Boardroom {place}'],
    courses: [
      { name: 'Presentation Skills', minutes: 360, level: 'All' }, { name: 'Excel for Business', minutes: 360, level: 'Intermediate' },
      { name: 'Project Management Essentials', minutes: 720, level: 'Beginner' }, { name: 'First-Time Manager Programme', minutes: 360, level: 'Beginner' },
      { name: 'Negotiation Masterclass', minutes: 360, level: 'Advanced' }, { name: 'Bookkeeping for Small Businesses', minutes: 240, level: 'Beginner' },
      { name: 'Social Media Marketing', minutes: 240, level: 'All' }, { name: 'Time Management', minutes: 180, level: 'All' },
      { name: 'Writing for Business', minutes: 240, level: 'Intermediate' }, { name: 'Agile and Scrum Foundations', minutes: 720, level: 'Beginner' },
    ],
    keywords: ['course', 'workshop', 'programme', null],
    lessons: ['Setting objectives', 'Planning your time', 'Stakeholders', 'Managing risk', 'Reporting', 'Review and reflect'],
    sections: ['Module 1', 'Module 2', 'Module 3'],
    addOns: [{ name: 'Workbook and templates', price: 2500 }, { name: 'Follow-up coaching call', price: 9500 }],
    price: [9500, 59500],
    faqs: [
      { question: 'Can we book a private course for our team?', answer: '<p>Yes. Every course can be delivered in-house, online or at your offices. <strong>Ask us for a quote.</strong></p>' },
    ],
    blurbs: [
      'Practical business training for managers, teams and small business owners.',
      'Courses are CPD accredited and tailored to your sector.',
      'We have trained people at more than 400 UK organisations, from start-ups to councils.',
    ],
    outcomes: ['apply a practical framework at work', 'lead meetings with confidence', 'plan and report progress', 'handle difficult conversations'],
    socialHandle: 'biz',
  },
  {
    key: 'painting', categoryId: 'cat_arts',
    names: ['{place} Art Studio', '{place} School of Art', '{surname} Painting Workshops', 'Brush & Easel {place}'],
    courses: [
      { name: 'Watercolour for Beginners', minutes: 150, level: 'Beginner' }, { name: 'Life Drawing', minutes: 120, level: 'All' },
      { name: 'Oil Painting Weekend', minutes: 360, level: 'Intermediate' }, { name: 'Acrylic Pour Workshop', minutes: 150, level: 'All' },
      { name: 'Botanical Illustration', minutes: 180, level: 'Intermediate' }, { name: 'Linocut Printmaking', minutes: 180, level: 'Beginner' },
      { name: 'Urban Sketching', minutes: 150, level: 'All' }, { name: 'Portrait Painting', minutes: 300, level: 'Advanced' },
    ],
    keywords: ['workshop', 'class', null],
    lessons: ['Materials', 'Mark making', 'Colour mixing', 'Composition', 'Light and shade', 'Finishing a piece'],
    sections: ['Drawing', 'Colour', 'Projects'],
    addOns: [{ name: 'Materials pack to keep', price: 2000 }, { name: 'Framing', price: 3500 }],
    price: [3000, 12000],
    faqs: [
      { question: 'Are materials included?', answer: '<p>Yes, all paints, paper and brushes are included in the price.</p>' },
    ],
    blurbs: [
      'A light-filled studio where complete beginners and practising artists paint side by side.',
      'We teach the fundamentals properly, then help you find your own style.',
      'All materials are included, and tea is always on.',
    ],
    outcomes: ['mix colours with confidence', 'compose a balanced picture', 'finish a piece you are proud of', 'keep a sketchbook habit'],
    socialHandle: 'art',
  },
  {
    key: 'crafts', categoryId: 'cat_arts',
    names: ['{place} Craft School', 'The {place} Makery', '{surname} Sewing School', '{place} Makers Workshop'],
    courses: [
      { name: 'Learn to Knit', minutes: 120, level: 'Beginner' }, { name: 'Sewing Machine Basics', minutes: 180, level: 'Beginner' },
      { name: 'Silver Ring Making', minutes: 240, level: 'All' }, { name: 'Macramé Wall Hanging', minutes: 150, level: 'All' },
      { name: 'Candle Making', minutes: 120, level: 'All' }, { name: 'Upholstery Weekend', minutes: 420, level: 'Intermediate' },
      { name: 'Woodcarving Spoons', minutes: 300, level: 'Beginner' }, { name: 'Stained Glass Suncatchers', minutes: 240, level: 'Beginner' },
      { name: 'Dressmaking: Your First Skirt', minutes: 360, level: 'Beginner' }, { name: 'Bookbinding', minutes: 180, level: 'All' },
    ],
    keywords: ['workshop', 'class', null],
    lessons: ['Tools and safety', 'Core technique', 'Practice piece', 'Finishing touches', 'Care and repair'],
    sections: ['Basics', 'Project'],
    addOns: [{ name: 'Take-home tool kit', price: 2500 }, { name: 'Extra materials', price: 1000 }],
    price: [3500, 15000],
    faqs: [
      { question: 'Do I take my project home?', answer: '<p>Yes, everything you make is yours to keep.</p>' },
    ],
    blurbs: [
      'Hands-on craft workshops in a cosy, well-equipped makers\u2019 space.',
      'Our tutors are makers who sell their own work and love passing skills on.',
      'No experience needed: every course starts from the very beginning.',
    ],
    outcomes: ['use the tools safely', 'finish a project to take home', 'understand the core techniques', 'carry on at home'],
    socialHandle: 'makers',
  },
  {
    key: 'dance', categoryId: 'cat_dance',
    names: ['{place} Dance Studio', '{place} Dance Academy', '{surname} School of Dance', 'Move {place}'],
    courses: [
      { name: 'Salsa for Beginners', minutes: 60, level: 'Beginner' }, { name: 'Contemporary Dance', minutes: 90, level: 'Intermediate' },
      { name: 'Ballet for Adults', minutes: 75, level: 'Beginner' }, { name: 'Swing and Lindy Hop', minutes: 90, level: 'All' },
      { name: 'Wedding First Dance Lessons', minutes: 60, level: 'All' }, { name: 'Hip Hop Choreography', minutes: 90, level: 'Intermediate' },
      { name: 'Tap Dance Taster', minutes: 60, level: 'Beginner' }, { name: 'HIIT Bootcamp', minutes: 45, level: 'All' },
    ],
    keywords: ['class', null],
    lessons: ['Warm up', 'Basic steps', 'Turns', 'Partnering', 'Routine'],
    sections: ['Foundations', 'Routine'],
    addOns: [{ name: 'Class video recording', price: 800 }],
    price: [1000, 8000],
    faqs: [
      { question: 'Do I need a partner?', answer: '<p>No, we rotate partners during class so everyone dances.</p>' },
    ],
    blurbs: [
      'Welcoming dance classes for adults of every age, shape and experience.',
      'Sprung floors, mirrors and teachers who make it fun from the first step.',
      'Drop in to a single class or join a term-long course.',
    ],
    outcomes: ['learn the basic steps', 'dance a short routine', 'move with more confidence', 'meet new people'],
    socialHandle: 'dance',
  },
  {
    key: 'gardening', categoryId: 'cat_garden',
    names: ['{place} Garden School', '{place} Community Garden Courses', '{surname} Horticulture', 'Greenhouse {place}'],
    courses: [
      { name: 'Grow Your Own Vegetables', minutes: 180, level: 'Beginner' }, { name: 'Pruning Fruit Trees', minutes: 180, level: 'Intermediate' },
      { name: 'Wildlife Gardening', minutes: 150, level: 'All' }, { name: 'Houseplant Care', minutes: 120, level: 'All' },
      { name: 'Garden Design Basics', minutes: 360, level: 'Beginner' }, { name: 'Composting Made Simple', minutes: 90, level: 'All' },
      { name: 'Floristry: Seasonal Wreaths', minutes: 180, level: 'All' }, { name: 'RHS Level 2 Principles', minutes: 360, level: 'Advanced' },
    ],
    keywords: ['workshop', 'course', null],
    lessons: ['Soil', 'Sowing', 'Planting out', 'Watering and feeding', 'Pests and diseases', 'Harvest'],
    sections: ['Spring', 'Summer', 'Autumn'],
    addOns: [{ name: 'Seed and tool starter kit', price: 1800 }, { name: 'Lunch from the garden', price: 900 }],
    price: [2500, 9500],
    faqs: [
      { question: 'What if it rains?', answer: '<p>We have a large glasshouse and a classroom, so sessions go ahead whatever the weather.</p>' },
    ],
    blurbs: [
      'Practical gardening courses in a working kitchen garden.',
      'Learn by doing: every session includes time with your hands in the soil.',
      'Our gardeners trained at Kew and the RHS and grow everything organically.',
    ],
    outcomes: ['plan a growing year', 'sow and plant with confidence', 'keep plants healthy', 'harvest and store your crops'],
    socialHandle: 'garden',
  },
];

export const VERTICAL_BY_KEY: Record<string, Vertical> = Object.fromEntries(VERTICALS.map((v) => [v.key, v]));

export { COMMON_FAQS };

export const COURSE_IMAGES_PER_VERTICAL = 4;
export const courseImage = (vertical: string, n: number): string => `/images/courses/${vertical}-${n}.svg`;
export const autoImage = (vertical: string): string => `/images/auto/${vertical}.svg`;
export const coverImage = (vertical: string): string => `/images/covers/${vertical}.svg`;
export const logoImage = (vertical: string): string => `/images/logos/${vertical}.svg`;
export const collectionImage = (vertical: string): string => `/images/collections/${vertical}.svg`;

/** Every image path the demo catalogue can reference. */
export const IMAGE_PATHS: string[] = VERTICALS.flatMap((v) => [
  ...Array.from({ length: COURSE_IMAGES_PER_VERTICAL }, (_, i) => courseImage(v.key, i + 1)),
  autoImage(v.key),
  coverImage(v.key),
  logoImage(v.key),
  collectionImage(v.key),
]);

/** Photographers credited on auto-generated images ('Stock photo by {name} on …'). */
export const STOCK_AUTHORS = ['Alex Morgan', 'Priya Shah', 'Tom Fletcher', 'Hannah Okoye', 'Jamie Lee', 'Ruth Campbell'];

export const REVIEW_MESSAGES_GOOD = [
  'Brilliant from start to finish. The tutor was patient and clearly loves teaching.',
  'Really well organised, friendly group and I learned far more than I expected.',
  'Fantastic session. I have already booked the next level!',
  'Lovely venue, great teaching, and everything we needed was provided.',
  'Exactly what I was looking for. Clear explanations and lots of hands-on time.',
  'Bought as a gift for my partner and we both had a great time.',
  'Excellent value. Small group so plenty of individual attention.',
  'Five stars. Relaxed atmosphere and genuinely useful skills.',
];
export const REVIEW_MESSAGES_MIXED = [
  'Good content but the session overran and felt a bit rushed at the end.',
  'Enjoyed it overall, though the room was quite cold.',
  'Helpful tutor. Would have liked more time to practise.',
  'Decent course, parking nearby was difficult.',
];
export const REVIEW_MESSAGES_BAD = [
  'The class was cancelled the day before and rebooking took a while.',
  'Not what I expected from the description, too basic for me.',
];
export const RESPONSES = [
  'Thank you so much for your kind words, we loved having you!',
  'Thanks for the feedback. We have shared it with the team and hope to see you again soon.',
  'We are sorry to hear this and have emailed you directly to put it right.',
  'Thanks for coming along, and good luck with the next steps!',
];
