package io.ankusa.store.cli;

/**
 * Why a command failed, as far as the user needs to know to act on it. Each cause has its exit
 * code; {@link CommandFailure#of(Throwable)} sorts a failure into one.
 */
enum FailureCause {
  /** A missing or malformed argument, a number out of range, an unknown backend or option. */
  BAD_ARGUMENT(AnkusaStore.BAD_INPUT),
  /** The path given does not exist. */
  NO_SUCH_PATH(AnkusaStore.BAD_INPUT),
  /** A file (or something else) where a directory is needed. */
  NOT_A_DIRECTORY(AnkusaStore.BAD_INPUT),
  /** The command would create something that is already there. */
  ALREADY_EXISTS(AnkusaStore.BAD_INPUT),
  /** The operating system refused this user access to a file. Nothing is wrong with the data. */
  PERMISSION_DENIED(AnkusaStore.BAD_INPUT),
  /**
   * The directory holds no store this command can use: nothing, another engine's files, garbage, an
   * unstamped or newer-format store, or a store in the middle of a migration.
   */
  FOREIGN_STORE(AnkusaStore.BAD_INPUT),
  /** Another open store (in this or another process) holds the directory's lock. */
  LOCKED_STORE(AnkusaStore.BAD_INPUT),
  /** The store's files are damaged: the command found a problem. */
  DAMAGED_STORE(AnkusaStore.FOUND_PROBLEMS),
  /** A write, a sync or an archive sink failed while the command ran: a problem found. */
  WRITE_FAILED(AnkusaStore.FOUND_PROBLEMS),
  /** Anything else: reported as a problem, with the stack trace under {@code --verbose}. */
  UNEXPECTED(AnkusaStore.FOUND_PROBLEMS);

  private final int exitCode;

  FailureCause(int exitCode) {
    this.exitCode = exitCode;
  }

  /** The command's exit code for a failure of this cause. */
  int exitCode() {
    return exitCode;
  }
}
