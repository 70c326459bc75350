import { describeServiceBoot } from '@inventory/test-kit';
import { bootstrap } from '../src/bootstrap.js';

describeServiceBoot('identity', bootstrap);
