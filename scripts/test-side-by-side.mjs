// The test command's last steps, side by side: each starts servers of its own (on free ports, fresh
// databases, folders of its own) and spends most of its time waiting on them, so together they take about
// as long as the longest alone, where one after another they took most of the command's time. Each one's
// output is printed whole, in this order, once it is done (concurrently's --group); the command fails if
// any step did. The browser's timing (Lighthouse) is not among them: it runs alone (vitest.config.ts).
import concurrently from 'concurrently';

const productionDay = (engine) =>
  `npm run production-day --silent -- --engine ${engine} --minutes 1 --ci --no-build --report test-artifacts/production-day/${engine}`;

const steps = [
  { name: 'conformance on SQLite', command: 'bash scripts/conformance.sh --if-installed' },
  { name: 'conformance on PostgreSQL', command: 'CONFORMANCE_DATABASE=postgres bash scripts/conformance.sh --if-installed' },
  { name: 'Python SDK', command: 'npm run test:python --silent' },
  { name: 'production day on PostgreSQL', command: productionDay('postgres') },
  { name: 'production day on SQLite', command: productionDay('sqlite') },
];

const { result } = concurrently(steps, { group: true, prefix: 'none', timings: true });
try {
  await result;
} catch (events) {
  const failed = events.filter((event) => event.exitCode !== 0).map((event) => event.command.name);
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
