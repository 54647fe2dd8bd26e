/**
 * The About page bio (spec 2.8): collapsed when its text is longer than 520 characters, with a
 * "Read more" / "Read less" toggle (spec 4 "Bio": collapsed or expanded). The sanitised bio comes in
 * as children (pre-rendered HTML), so it is not repeated in the island's props.
 */
import { useState, type ReactNode } from 'react';

export default function BioToggle({ children }: { children?: ReactNode }) {
  const [expanded, setExpanded] = useState(false);
  const id = 'about-bio-text'; // one bio per page
  return (
    <div className={`bio${expanded ? ' bio--expanded' : ' bio--collapsed'}`}>
      <div id={id} className="bio__text rich-text">{children}</div>
      <button type="button" className="link-button" aria-expanded={expanded} aria-controls={id} onClick={() => setExpanded(!expanded)}>
        {expanded ? 'Read less' : 'Read more'}
      </button>
    </div>
  );
}
