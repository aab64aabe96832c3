// "Try it" on the API reference pages: each operation's description ends in a placeholder that this
// script turns into a form pre-filled with the operation's example request (the demo keys included).
// When the running mock serves the page, the form sends the request to that same mock — the page's
// own origin — and shows its answer; anywhere else it says how to start the mock.
(() => {
  const data = JSON.parse(document.getElementById('lmskit-try-data')?.textContent || '{}');
  const meta = document.querySelector('meta[name="lmskit-mock"]');
  const live = meta?.getAttribute('content') === 'live';
  const mockOrigin = meta?.dataset.origin || 'http://127.0.0.1:4010';
  const page = location.pathname.split('/').pop() || `${data.api}.html`;

  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };

  const field = (name, input, wide = false) =>
    el('label', { className: wide ? 'wide' : '' }, el('span', { textContent: name }), input);

  /** The page's route to an operation: Redoc names each operation's section by it. */
  const routeOf = (placeholder) => {
    const section = placeholder.closest('[data-section-id]')?.getAttribute('data-section-id');
    return section ? `#${section}` : location.hash;
  };

  function offline(body, route) {
    const url = `${mockOrigin}/docs/${page}${route}`;
    body.append(
      el(
        'p',
        { className: 'lmskit-try-offline' },
        'To send this request from here, start the mock with ',
        el('code', { textContent: 'npm start' }),
        ' and open this page from it: ',
        el('a', { href: url, textContent: url }),
        '. The demo keys are filled in, and the code samples work against it as they are.',
      ),
    );
  }

  /** `value` with `suffix` in place of `previous` at the end of its name (before an e-mail's @). */
  const varied = (value, suffix, previous) => {
    const at = value.lastIndexOf('@');
    let name = at > 0 ? value.slice(0, at) : value;
    if (previous && name.endsWith(previous)) name = name.slice(0, -previous.length);
    return name + suffix + (at > 0 ? value.slice(at) : '');
  };

  /**
   * After a body the platform took, the values it would refuse a second time (`x-unique`: an id, an
   * e-mail) get a number at the end (`anna01` → `anna012`, `anna@…` → `anna2@…`), so Send works again;
   * a body no longer JSON is left as it is.
   */
  function varyUnique(textarea, pointers, sends) {
    let value;
    try {
      value = JSON.parse(textarea.value);
    } catch {
      return [];
    }
    const changed = [];
    for (const pointer of pointers) {
      const keys = pointer
        .split('/')
        .slice(1)
        .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
      const last = keys.pop();
      const holder = keys.reduce(
        (node, key) => (node && typeof node === 'object' ? node[key] : undefined),
        value,
      );
      if (!holder || typeof holder[last] !== 'string') continue;
      holder[last] = varied(holder[last], String(sends + 1), sends > 1 ? String(sends) : '');
      changed.push(last);
    }
    if (changed.length) textarea.value = JSON.stringify(value, null, 2);
    return [...new Set(changed)];
  }

  function form(body, request) {
    const inputs = [];
    const fields = el('form');
    for (const p of request.params) {
      const input = el('input', { value: p.value, required: p.required, title: p.description });
      input.dataset.in = p.in;
      input.dataset.name = p.name;
      inputs.push(input);
      fields.append(
        field(`${p.name}${p.in === 'query' ? ' (query)' : p.in === 'header' ? ' (header)' : ''}`, input),
      );
    }
    let auth;
    if (request.auth) {
      auth = el('input', {
        value: request.auth.known ? request.auth.value : '',
        placeholder: request.auth.hint,
        title: request.auth.hint,
      });
      auth.dataset.role = 'auth';
      fields.append(
        field(`${request.auth.header}${request.auth.prefix ? ` (${request.auth.prefix.trim()})` : ''}`, auth),
      );
    }
    let json;
    const parts = [];
    if (request.body?.json !== undefined) {
      json = el('textarea', { value: request.body.json, spellcheck: false });
      json.dataset.role = 'body';
      fields.append(field(`body (${request.body.contentType})`, json, true));
    } else if (request.body?.parts) {
      for (const part of request.body.parts) {
        const input = part.file
          ? el('input', { type: 'file', required: part.required })
          : el('input', { value: part.value, required: part.required });
        parts.push([part, input]);
        fields.append(field(`${part.name} (form part)`, input));
      }
    }
    const send = el('button', { type: 'submit', textContent: `Send ${request.method} ${request.path}` });
    fields.append(send);
    const status = el('p', { className: 'lmskit-try-status', hidden: true });
    status.setAttribute('role', 'status');
    const output = el('pre', { className: 'lmskit-try-response', hidden: true });
    body.append(fields, status, output);
    let sends = 0;

    fields.addEventListener('submit', async (event) => {
      event.preventDefault();
      const base = new URL(request.server).pathname;
      let path = request.path;
      const query = new URLSearchParams();
      const headers = {};
      for (const input of inputs) {
        const { name } = input.dataset;
        if (input.dataset.in === 'path') path = path.replace(`{${name}}`, encodeURIComponent(input.value));
        else if (input.value === '') continue;
        else if (input.dataset.in === 'query') query.append(name, input.value);
        else headers[name] = input.value;
      }
      if (auth?.value) headers[request.auth.header] = request.auth.prefix + auth.value;
      let payload;
      if (json) {
        headers['content-type'] = request.body.contentType;
        payload = json.value;
      } else if (parts.length) {
        payload = new FormData();
        for (const [part, input] of parts) {
          if (part.file && input.files[0]) payload.append(part.name, input.files[0]);
          else if (!part.file && input.value) payload.append(part.name, input.value);
        }
      }
      const search = query.toString();
      const url = `${location.origin}${base}${path}${search ? `?${search}` : ''}`;
      send.disabled = true;
      status.hidden = false;
      status.textContent = `Sending ${request.method} ${url} …`;
      status.dataset.ok = 'true';
      output.hidden = true;
      try {
        const response = await fetch(url, {
          method: request.method,
          headers,
          body: payload,
          cache: 'no-store',
        });
        const text = await response.text();
        let shown = text;
        try {
          shown = JSON.stringify(JSON.parse(text), null, 2);
        } catch {}
        status.textContent = `${response.status} ${response.statusText} · ${request.method} ${url}`;
        status.dataset.ok = String(response.ok);
        if (response.ok && json && request.body.unique) {
          const changed = varyUnique(json, request.body.unique, ++sends);
          if (changed.length)
            status.textContent += ` · the next Send changes ${changed.join(', ')}, which the platform takes once`;
        }
        output.textContent = shown || '(no body)';
        output.hidden = false;
      } catch (error) {
        status.textContent = `The mock did not answer: ${error.message}`;
        status.dataset.ok = 'false';
      } finally {
        send.disabled = false;
      }
    });
  }

  function render(placeholder) {
    placeholder.dataset.ready = 'true';
    const request = data.operations?.[placeholder.dataset.operation];
    if (!request) return;
    const body = el('div', { className: 'lmskit-try-body' });
    const details = el(
      'details',
      {},
      el('summary', { textContent: live ? 'Try it against the mock' : 'Try it' }),
      body,
    );
    if (live) form(body, request);
    else offline(body, routeOf(placeholder));
    placeholder.append(details);
  }

  // Redoc renders an operation's description when its route is opened; fill each placeholder once.
  const fill = () => {
    for (const placeholder of document.querySelectorAll('.lmskit-try:not([data-ready])')) render(placeholder);
  };
  new MutationObserver(fill).observe(document.body, { childList: true, subtree: true });
  fill();
})();
