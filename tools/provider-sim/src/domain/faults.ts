/** Injected failures for the next N calls of an endpoint (or of any endpoint with `*`). */
export interface FaultSpec {
  /** HTTP status to answer with (e.g. 500, 503, 429). Default 500 when no `code` is given. */
  httpStatus?: number;
  /** Provider code in the body. With no `httpStatus`, the answer is HTTP 200 with this code. */
  code?: number;
  /** How many calls fail. Default 1. */
  times?: number;
  /** Only calls with this `17token` fail (one account's outage or rate limit); default any key. */
  apiKey?: string;
}

export interface Fault {
  endpoint: string;
  httpStatus: number;
  code: number | null;
  remaining: number;
  apiKey: string | null;
}

export class FaultQueue {
  private faults: Fault[] = [];

  add(endpoint: string, spec: FaultSpec): Fault {
    const fault: Fault = {
      endpoint,
      httpStatus: spec.httpStatus ?? (spec.code === undefined ? 500 : 200),
      code: spec.code ?? null,
      remaining: spec.times ?? 1,
      apiKey: spec.apiKey ?? null,
    };
    this.faults.push(fault);
    return fault;
  }

  /** Consumes one failure matching `endpoint` and the caller's key, oldest first. */
  take(endpoint: string, apiKey: string): Fault | undefined {
    const fault = this.faults.find(
      (f) =>
        (f.endpoint === endpoint || f.endpoint === '*') &&
        (f.apiKey === null || f.apiKey === apiKey),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  pending(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}
