import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this run, so each lane makes each build once in it (builds.ts). */
    e2eRun: string;
  }
}

/** Before the browser tests: an id for the run. The builds are made by the lanes (lane-setup.ts). */
export default function setup(project: TestProject): void {
  project.provide('e2eRun', `${process.pid}-${Date.now()}`);
}
