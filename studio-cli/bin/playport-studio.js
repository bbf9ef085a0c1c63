#!/usr/bin/env node
// The command of the playport-studio package (decision 123): `playport-studio push <folder>
// --game <slug> [--submit]`. stdout holds one JSON document; exit 0 done, 1 refused, 2 usage.
import { main } from '../lib/push.js';

process.exitCode = await main(process.argv.slice(2), process.env);
