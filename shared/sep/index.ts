export * from './constants';
export * from './digest';
export * from './skill-uri';
export * from './schemas';
export * from './legacy';
