export type EmbeddedKafkaErrorCode = 'BAD_OPTION' | 'BAD_PORT' | 'PORT_IN_USE' | 'BAD_HOST' | 'DATA_DIR' | 'DATA_DIR_LOCKED';

/** A start-up problem the operator can fix; the CLI prints its message as one line and exits 2. */
export class EmbeddedKafkaError extends Error {
  constructor(
    readonly code: EmbeddedKafkaErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddedKafkaError';
  }
}
