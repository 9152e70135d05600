import pino from 'pino';
import { Writable } from 'node:stream';
const dest = { write: (_s: string) => true } as any;
const logger = pino({ level: 'info' }, dest).child({}, { redact: [] });
const line = (i: number) => ({ requestId: 'b3f1c2d4-1234-4abc-8def-0123456789ab', method: 'GET', route: '/me', operationId: 'getMe', status: 200, durationMs: Math.round(i % 1000) / 1000, accountId: '0c1d2e3f-1234-4abc-8def-0123456789ab', clientId: 'web', aborted: undefined });
for (let r = 0; r < 3; r++) {
  let t = performance.now();
  for (let i = 0; i < 200000; i++) logger.info(line(i), 'request');
  const a = (performance.now() - t) / 200000 * 1000;
  t = performance.now();
  let n = 0;
  for (let i = 0; i < 200000; i++) n += JSON.stringify(line(i)).length;
  const b = (performance.now() - t) / 200000 * 1000;
  console.log('pino', a.toFixed(2), 'µs; JSON.stringify', b.toFixed(2), 'µs');
}
