/** The gateway's date filters read days with the one parser both sides import (@inventory/rules). */
export { endOfDay, isoDay, parseDay, parseMdY, startOfDay } from '@inventory/rules';
