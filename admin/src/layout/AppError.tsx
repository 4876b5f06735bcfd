/** react-admin's error page, in a chunk of its own (loaded by PortalAdminUI only when an error is shown). */
export { Error as default } from 'react-admin';
