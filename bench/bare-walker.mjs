// The baseline of bench/remote.mjs: a plain script reading a whole contact list the way a
// developer would write it with fetch, page 1 first, then `inFlight` pages at a time, every row
// written to stdout as a JSON line in page order. Run as a process of its own, so that its time
// includes Node's start-up as wsm's does. The token comes from WSM_TOKEN.
//   node bench/bare-walker.mjs <contacts URL> <in flight>
const [listUrl, inFlightArg = '8'] = process.argv.slice(2);
const inFlight = Number(inFlightArg);
const headers = { authorization: `Bearer ${process.env.WSM_TOKEN}`, accept: 'application/json' };
const get = async (page) => {
  const res = await fetch(`${listUrl}?per_page=100&page=${page}`, { headers });
  if (res.status !== 200) throw new Error(`page ${page}: ${res.status}`);
  return (await res.json()).data;
};

const pageText = (rows) => rows.map((row) => `${JSON.stringify(row)}\n`).join('');
const first = await fetch(`${listUrl}?per_page=100&page=1`, { headers }).then((res) => res.json());
const last = first.meta.last_page;
process.stdout.write(pageText(first.data));
// Pages come back in any order; each is written once every page before it has been.
const done = new Map();
let written = 1;
let next = 2;
const flush = () => {
  while (done.has(written + 1)) {
    written += 1;
    process.stdout.write(pageText(done.get(written)));
    done.delete(written);
  }
};
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next <= last) {
      const page = next++;
      done.set(page, await get(page));
      flush();
    }
  }),
);
