import { runV2 } from '/work/wt-10/e2e/lab/v2/runs';
import { startV2Lab } from '/work/wt-10/e2e/lab/v2/server';
const lab = await startV2Lab();
const t = setTimeout(() => { console.log('STUCK', JSON.stringify(lab.recorder.exchanges().map(e => [e.method, e.requestBody?.toString().slice(0,80), e.status, e.end, Buffer.concat(e.body).toString().slice(0,300)]), null, 1)); process.exit(1); }, 8000);
console.log(await runV2(process.argv[2] as any, lab));
clearTimeout(t);
await lab.close();
