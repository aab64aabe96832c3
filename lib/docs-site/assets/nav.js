// The header's Menu button, shown on a narrow screen (site.css) in place of the navigation: it opens
// and closes the list of pages; Escape, or a click elsewhere, closes it.
(() => {
  const header = document.querySelector('.lmskit-header');
  const button = header?.querySelector('.lmskit-menu');
  const nav = document.getElementById('lmskit-nav');
  if (!header || !button || !nav) return;

  const setOpen = (open) => {
    button.setAttribute('aria-expanded', String(open));
    header.toggleAttribute('data-menu-open', open);
  };
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
    setOpen(false);
    button.focus();
  });
  document.addEventListener('click', (event) => {
    if (!header.contains(event.target)) setOpen(false);
  });
  // A link to a heading of the same page leaves the page where it is: the menu closes behind it.
  nav.addEventListener('click', (event) => {
    if (event.target.closest('a')) setOpen(false);
  });
})();
