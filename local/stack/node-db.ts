// The Worker's database module, used from Node (seed, scripts, benchmarks): the Neon
// driver needs a WebSocket implementation here, which workerd provides natively.
import { neonConfig } from '@neondatabase/serverless';
import ws from 'ws';
import { openDatabase } from '../../worker/db';

neonConfig.webSocketConstructor = ws;

export { openDatabase };
