/** The version this server reports (`/meta`, the footer), the app family's numbering. */
export const APP_VERSION = '4.7.0';
