// `npm run dev -- <args>`: the CLI from src/ through tsx, without a build (bin/wsm.js runs dist/).
import { main } from '../src/cli.js';

process.exitCode = await main(process.argv.slice(2));
