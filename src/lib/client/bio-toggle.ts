/** The About page bio's "Read more" / "Read less" toggle (spec 2.8, 4 "Bio"): see src/components/BioToggle.astro. */
for (const bio of document.querySelectorAll<HTMLElement>('[data-bio-toggle]')) {
  const button = bio.querySelector<HTMLButtonElement>('button[aria-controls]');
  button?.addEventListener('click', () => {
    const expanded = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(expanded));
    button.textContent = expanded ? 'Read less' : 'Read more';
    bio.classList.toggle('bio--expanded', expanded);
    bio.classList.toggle('bio--collapsed', !expanded);
  });
}
