// A disk that fills up, injected through the state file's file-system interface where a real one
// (a small tmpfs) cannot be mounted: writes past the room left come up short, then fail with ENOSPC.
import * as fs from 'node:fs';
import type { StateFileFs } from '../mock/store/state-file.ts';

export function diskWithRoom(free = Number.POSITIVE_INFINITY) {
  const room = { free };
  const io: StateFileFs = {
    ...fs,
    writeSync: ((fd: number, buffer: Buffer, offset: number, length: number, position: number) => {
      if (room.free <= 0)
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      const n = Math.min(length, room.free);
      room.free -= n;
      return fs.writeSync(fd, buffer, offset, n, position);
    }) as StateFileFs['writeSync'],
  };
  return { io, room };
}
