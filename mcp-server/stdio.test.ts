// The id of a stdio message too long to parse (mcp-server/stdio.ts): read from the line's first or
// last bytes, where clients write it, and never from a member nested inside the message.
import { describe, expect, it } from 'vitest';
import { idOfOversized } from './stdio.ts';

describe('idOfOversized', () => {
  it.each<[string, string, string, string | number | null]>([
    ['first member', '{"id":3,"method":"ping","params":{"pad":"xx', 'xx"}}', 3],
    ['after jsonrpc', '{ "jsonrpc": "2.0", "id": "a-1", "method": "tools/call"', '"}}}', 'a-1'],
    [
      'last member, as the SDK writes it',
      '{"method":"ping","params":{"pad":"xx',
      'xx"},"jsonrpc":"2.0","id":17}',
      17,
    ],
    ["a nested id at the end is not the message's", '{"method":"x","params":{"a":', '{"id":4}}}', null],
    [
      "a nested id at the start is not the message's",
      '{"method":"x","params":{"id":4,"pad":"x',
      'x"}}',
      null,
    ],
    ['no id (a notification)', '{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"', '"}}', null],
  ])('%s', (_, head, tail, id) => {
    expect(idOfOversized(head, tail)).toBe(id);
  });
});
