// `npm start`: the one-machine runtime. For now it serves the OpenWeb simulator on loopback,
// so the client can be tried without OpenWeb credentials; the API and workflows join it later.
import { DEMO_SPOTS, startOpenWebSimulator } from './openweb-simulator';

const DEFAULT_SIMULATOR_PORT = 4010;

const port = Number(process.env.SIMULATOR_PORT ?? DEFAULT_SIMULATOR_PORT);
const simulator = await startOpenWebSimulator({ port });
console.log(`OpenWeb simulator listening on ${simulator.url} (loopback only)`);
console.log(`Demo spots: ${Object.keys(DEMO_SPOTS).join(', ')}`);
console.log(
  `Try: curl -s -X POST ${simulator.url}/v1/publisher/auth -H 'content-type: application/json' ` +
    `-d '{"spot_id":"sp_demo","apikey":"${DEMO_SPOTS.sp_demo?.apiKey}"}'`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void simulator.close().then(() => process.exit(0));
  });
}
