package io.ankusa.store.cli;

/**
 * A command refused its input before touching anything: a path that is missing, not a directory,
 * already there or not accessible, a directory holding no store it may use, an option out of range.
 * The message is the one line the user sees; {@link #failureCause()} is how {@link CommandFailure}
 * sorts it.
 */
final class CommandInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final FailureCause failureCause;

  CommandInputException(FailureCause cause, String message) {
    super(message);
    this.failureCause = cause;
  }

  CommandInputException(FailureCause cause, String message, Throwable underlying) {
    super(message, underlying);
    this.failureCause = cause;
  }

  /** What kind of bad input this is. */
  FailureCause failureCause() {
    return failureCause;
  }
}
