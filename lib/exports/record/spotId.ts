// The spot id's shape is defined with the settings, which check the spots of the IAM principals'
// map with it and import nothing of the domain (the domain reads its settings from them).
export { SPOT_ID_MESSAGE, SPOT_ID_PATTERN } from '../../settings/spotId';
