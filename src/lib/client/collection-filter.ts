/**
 * The courses page filtered by a collection (spec 2.1: the courses link plus ?list={collectionId}):
 * cards outside the collection are hidden and the collection's name is shown. Without JavaScript
 * every course stays listed.
 */
const listId = new URLSearchParams(window.location.search).get('list');
const root = document.querySelector<HTMLElement>('[data-collection-filter]');
if (listId && root) {
  const collections = JSON.parse(root.dataset.collections ?? '{}') as Record<string, string>;
  const name = collections[listId];
  if (name) {
    let shown = 0;
    for (const card of root.querySelectorAll<HTMLElement>('[data-course-item]')) {
      const inList = (card.dataset.collections ?? '').split(' ').includes(listId);
      card.hidden = !inList;
      if (inList) shown += 1;
    }
    const heading = document.querySelector<HTMLElement>('[data-collection-heading]');
    if (heading) {
      heading.hidden = false;
      const title = heading.querySelector('[data-collection-name]');
      if (title) title.textContent = name;
    }
    const count = document.querySelector<HTMLElement>('[data-course-count]');
    if (count) count.textContent = `${shown} ${shown === 1 ? 'course' : 'courses'}`;
    for (const chip of document.querySelectorAll<HTMLAnchorElement>('[data-collection-link]')) {
      if (chip.dataset.collectionLink === listId) chip.setAttribute('aria-current', 'true');
    }
  }
}
