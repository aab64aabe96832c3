// The home page's box of addresses: where the mock's APIs, console and tool server are, with a
// request to try. Built with the mock's default address; the mock serves the page with the address
// it was reached at instead (mock/http/docs.ts, which also shows the box's "live" sentence in place
// of its "static" one), so a mock on another port shows its own.
import { escapeHtml as html } from '../html.ts';

/**
 * The box, for the mock at `origin` (the contracts' first server). The sentence for the static site
 * names the port alone, not the origin, so the mock's substitution of the origin leaves it true.
 */
export function mockAddressBox(origin: string, keys: { site: string; mcp: string }): string {
  const port = new URL(origin).port || '80';
  const at = (path: string) => `${origin}${path}`;
  const place = (label: string, path: string, what: string, link = false) =>
    `<tr><th scope="row">${html(label)}</th><td>${link ? `<a href="${html(at(path))}">` : ''}<code>${html(at(path))}</code>${link ? '</a>' : ''}</td><td>${what}</td></tr>`;
  const curl = [
    `curl -H 'X-API-KEY: ${keys.site}' '${at('/openapi/v1/courses?offset=20')}'`,
    `curl -H 'X-MCP-Key: ${keys.mcp}' ${at('/api/v2/mcp/capabilities')}`,
    `npx lmskit mcp --base-url ${origin}        # the MCP tool server, on this mock`,
  ].join('\n');
  return `<aside class="lmskit-address" aria-labelledby="lmskit-address">
<h2 id="lmskit-address">The mock's address</h2>
<p data-lmskit-when="static">The addresses here are those of a mock on its default port, ${html(port)} (<code>npm start</code>).
A mock started on another port (<code>npx lmskit mock --port 5010</code>, or <code>LMSKIT_PORT=5010 npm start</code>) serves this
site at its own <code>/docs/</code>, and there they name its address.</p>
<p data-lmskit-when="live" hidden>This site is served by the mock at <code>${html(origin)}</code>: the addresses
here, and the samples and <strong>Try it</strong> of the references, name that mock.</p>
<table>
${place('REST API v1', '/openapi/v1', 'the site API key in <code>X-API-KEY</code>')}
${place('MCP backend v2', '/api/v2', 'an MCP key in <code>X-MCP-Key</code>')}
${place('Admin API', '/__admin', 'the admin token the mock prints, as <code>Bearer</code>')}
${place('Console', '/console/', 'the mock in a browser (sign in with the admin token)', true)}
${place('Index', '/', 'everything the mock serves, with links', true)}
${place('This site', '/docs/', 'the docs, built from the contracts the mock runs on', true)}
</table>
<pre><code>${html(curl)}</code></pre>
</aside>`;
}
