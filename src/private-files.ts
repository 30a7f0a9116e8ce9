/**
 * Every file portin writes (journal, its lock, results, status report, temporary files) holds
 * customers' names, addresses and tickets: readable and writable by its owner only, whatever
 * the umask (docs/contract.md §7). Files are created with this mode and then set to it, since
 * a umask can only take bits away from the mode a file is created with.
 */
export const PRIVATE_FILE_MODE = 0o600;
