// The header's search: one MiniSearch index of the whole site (assets/search-index.js, built with the
// site), so a result may be on any page. Arrow keys move through the results, Enter opens one; Ctrl+K
// (⌘K) comes here from anywhere on the page. The index (about 400 KB) and MiniSearch load when the
// reader first comes to the search box, not with every page: most visits never search.
(() => {
  const input = document.getElementById('lmskit-search');
  const list = document.getElementById('lmskit-results');
  if (!input || !list) return;
  const assets = document.currentScript?.src ?? 'assets/search.js';
  /** Loads a script beside this one (a script, not a fetch: a page opened from disk can load it). */
  const load = (name) =>
    new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = new URL(name, assets).href;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`${name} did not load`));
      document.head.append(script);
    });
  let index;
  let loading;
  const ready = () => {
    loading ??= load('minisearch.js')
      .then(() => load('search-index.js'))
      .then(() => {
        const data = window.lmskitSearch;
        index = window.MiniSearch.loadJS(data.index, data.options);
        // What was typed while the index loaded is searched now.
        if (input.value.trim()) show();
      })
      .catch((error) => {
        // Said where the results would be; the next visit to the box tries again.
        loading = undefined;
        const item = document.createElement('li');
        item.className = 'empty';
        item.textContent = `The search is not available: ${error.message}.`;
        list.replaceChildren(item);
        list.hidden = false;
      });
    return loading;
  };
  const LIMIT = 10;
  // Ctrl+K (⌘K) goes to this search on every page, before Redoc's own search on a reference sees it
  // (its button is hidden by site.css): one search for the whole site.
  window.addEventListener(
    'keydown',
    (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        event.stopImmediatePropagation();
        input.focus();
      }
    },
    true,
  );
  let selected = -1;

  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    selected = -1;
  };

  const select = (i) => {
    const items = [...list.querySelectorAll('li[role="option"]')];
    if (!items.length) return;
    selected = (i + items.length) % items.length;
    items.forEach((item, n) => {
      item.setAttribute('aria-selected', String(n === selected));
    });
    items[selected].scrollIntoView({ block: 'nearest' });
  };

  const show = () => {
    const query = input.value.trim();
    if (!index) return void ready();
    list.replaceChildren();
    if (!query) return close();
    const results = index
      .search(query, {
        prefix: true,
        fuzzy: 0.2,
        boost: { title: 5 },
        // As the index keeps its words (search.ts, termOf).
        processTerm: (term) => term.toLowerCase().replace(/([a-z]{3})s$/, '$1'),
        combineWith: 'AND',
        boostDocument: (_id, _term, stored) => stored?.weight ?? 1,
      })
      .slice(0, LIMIT);
    for (const r of results) {
      const item = document.createElement('li');
      item.setAttribute('role', 'option');
      const link = document.createElement('a');
      link.href = r.url;
      const title = document.createElement('strong');
      title.textContent = r.title;
      const page = document.createElement('span');
      page.className = 'page';
      page.textContent = ` · ${r.page}`;
      const excerpt = document.createElement('span');
      excerpt.className = 'excerpt';
      excerpt.textContent = r.excerpt;
      link.append(title, page, excerpt);
      link.addEventListener('click', close);
      item.append(link);
      list.append(item);
    }
    if (!results.length) {
      const empty = document.createElement('li');
      empty.className = 'empty';
      empty.textContent = 'Nothing found.';
      list.append(empty);
    }
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    selected = -1;
  };

  input.addEventListener('input', show);
  input.addEventListener('focus', () => (input.value.trim() ? show() : ready()));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      select(selected + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter') {
      const items = list.querySelectorAll('li[role="option"] a');
      const target = items[Math.max(selected, 0)];
      if (target) {
        event.preventDefault();
        close();
        target.click();
      }
    } else if (event.key === 'Escape') close();
  });
  document.addEventListener('click', (event) => {
    if (!event.target.closest?.('.lmskit-search')) close();
  });
})();
