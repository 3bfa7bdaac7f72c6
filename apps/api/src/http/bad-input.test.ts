// The hostile-input sweep (bad-input.sweep.ts), first share: every other route of its tables, and its single tests.
// bad-input-routes.test.ts runs the other share, so the two test workers share the sweep.
import { badInputTests } from './bad-input.sweep.ts';

badInputTests(0, 2);
