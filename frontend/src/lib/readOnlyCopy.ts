import { createContext } from 'react';

/**
 * True in a read-only copy of damaged data (Status.readOnly): what would
 * write it (Go refuses every such call there) is not offered. App provides
 * it; parts far from the status (a tool call's rule, Settings' import)
 * read it.
 */
export const ReadOnlyCopyContext = createContext(false);
