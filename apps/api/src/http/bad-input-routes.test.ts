// The hostile-input sweep (bad-input.sweep.ts), second share: the routes of its tables that bad-input.test.ts leaves.
import { badInputTests } from './bad-input.sweep.ts';

badInputTests(1, 2);
