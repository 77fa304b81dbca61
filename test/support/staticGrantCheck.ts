import { iamPatternMatches } from '../system/shipped/iamPolicy';

/** Per function (by handler name): IAM actions. */
export type ActionsByFunction = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Deliberate differences between what a function's code can send and what its role is granted,
 * each with its reason, keyed `<handler> <action>` (IAM wildcards allowed: `* logs:PutLogEvents`).
 */
export interface GrantExceptions {
  /** Sendable by the bundle, yet not granted: a path of the bundle's code this function never takes. */
  notGranted: Readonly<Record<string, string>>;
  /** Granted, yet never sent by the bundle's code: sent by AWS on the function's behalf, or why else it is there. */
  notSent: Readonly<Record<string, string>>;
}

function listed(exceptions: Readonly<Record<string, string>>, handler: string, action: string): string[] {
  return Object.keys(exceptions).filter((key) => {
    const [handlerPattern = '', actionPattern = ''] = key.split(' ');
    return iamPatternMatches(handlerPattern, handler) && iamPatternMatches(actionPattern, action, true);
  });
}

/**
 * What the static grant check finds, one sentence each: an operation a function's bundle can send
 * that its role is not granted, a grant its bundle never sends, an exception that no longer
 * matches anything. No finding: every sendable operation is granted and every grant is used,
 * but for the listed exceptions.
 */
export function staticGrantFindings(
  sendable: ActionsByFunction,
  granted: ActionsByFunction,
  exceptions: GrantExceptions,
): string[] {
  const findings: string[] = [];
  const used = new Set<string>();
  for (const [handler, actions] of sendable) {
    const grants = granted.get(handler) ?? new Set<string>();
    for (const action of [...actions].sort()) {
      if ([...grants].some((grant) => iamPatternMatches(grant, action, true))) continue;
      const keys = listed(exceptions.notGranted, handler, action);
      if (keys.length === 0) findings.push(`${handler} can send ${action}, but its role is not granted it`);
      for (const key of keys) used.add(`notGranted ${key}`);
    }
  }
  for (const [handler, grants] of granted) {
    const actions = sendable.get(handler) ?? new Set<string>();
    for (const grant of [...grants].sort()) {
      if ([...actions].some((action) => iamPatternMatches(grant, action, true))) continue;
      const keys = listed(exceptions.notSent, handler, grant);
      if (keys.length === 0) findings.push(`${handler} is granted ${grant}, but its code never sends it`);
      for (const key of keys) used.add(`notSent ${key}`);
    }
  }
  for (const [kind, entries] of Object.entries(exceptions)) {
    for (const key of Object.keys(entries)) {
      if (!used.has(`${kind} ${key}`))
        findings.push(`the ${kind} exception "${key}" matches nothing: remove it`);
    }
  }
  return findings;
}
