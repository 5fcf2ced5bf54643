import { readConfigTolerant } from '../../config/config-file.js';
import type { HostEnv } from '../../config/host.js';
import type { DoctorCheck, DoctorOptions } from './check.js';
import { indexCheck, plansCheck, projectCheck } from './project-checks.js';
import { providerChecks } from './provider-checks.js';
import {
  agreementCheck,
  freshInstallCheck,
  legacyConfigCheck,
  requiresCheck,
  roundTripCheck,
  storageCheck,
} from './setup-checks.js';
import { storeChecks } from './store-checks.js';
import type { DoctorSubject } from './subject.js';

/**
 * Every check of the doctor (`quick`: the first two), in the order every front end shows them: storage
 * (what selection does with this context's host), agreement (an editor against the agents in its folder), set-up hints and
 * legacy config, required capabilities, the store (lock, links, leftover temps, conflict copies), the
 * providers, the project and its plans, the memory index, and the round trip. `workspace` is undefined
 * when it could not be opened (`openError`: the storage check says why, and the checks that need a
 * store are left out). Never throws for a misconfiguration: it is a `fail` check naming the fix.
 */
export async function runDoctor(
  subject: { readonly host: HostEnv; readonly workspace: DoctorSubject | undefined; readonly openError?: unknown },
  options: DoctorOptions = {},
): Promise<DoctorCheck[]> {
  const { host, workspace: ws, openError } = subject;
  const checks: DoctorCheck[] = [await storageCheck(host, options.agents)];
  const add = (check: DoctorCheck | undefined) => check && checks.push(check);
  if (ws && options.agents) add(await agreementCheck(ws, options.agents));
  if (options.quick) return checks;
  add(await freshInstallCheck(host));
  add(await legacyConfigCheck(host));
  if (options.requires) add(requiresCheck(ws, openError, options.requires));
  if (ws) checks.push(...(await storeChecks(ws, { fix: options.fix === true })));
  const config = ws?.config ?? (await readConfigTolerant(host));
  const providers = ws ? { chat: () => ws.chat(), embedder: () => ws.embedder() } : undefined;
  checks.push(...(await providerChecks(host, config, providers, { live: options.liveProviders === true })));
  if (ws) {
    add(await projectCheck(ws));
    add(await plansCheck(ws));
    add(await indexCheck(ws));
  }
  if (options.roundtrip) add(await roundTripCheck(ws, openError));
  return checks;
}
