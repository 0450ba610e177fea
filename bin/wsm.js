#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
