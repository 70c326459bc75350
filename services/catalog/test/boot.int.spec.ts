import { describeServiceBoot } from '@inventory/local-infra';
import { bootstrap } from '../src/bootstrap.js';

describeServiceBoot('catalog', bootstrap);
