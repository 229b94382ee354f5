import { DEFAULT_TIME_ZONE, isTimeZone } from '../contract/time-zones';

/** The operator's zone: the browser's (a profile without a zone of its own is offered this one). */
export const operatorZone = (): string => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
};

/** Every IANA zone the browser knows, the operator's and UTC first among them. */
export const zoneChoices = (): string[] => {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([operatorZone(), DEFAULT_TIME_ZONE, ...all])];
};
