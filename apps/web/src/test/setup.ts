import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy… and waitFor wait for a state, not for a time: on a busy machine (another test run beside
// this one, CI's two cores) a lazy page can take seconds to arrive, so they may wait up to 10 s (the
// default 1 s failed there). The test's own timeout stays the limit.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => cleanup());
