/**
 * What the service says the account has (docs/contract.md §1.1: its SIP trunks, offerings and the
 * losing-carrier providers) and where a number's port-in stands, as portin's stages use
 * them; service/answers.ts parses the service's answers into these.
 */

export interface Trunk {
  /** 10 digits. */
  readonly pilotNumber: string;
  readonly label: string;
}
export interface Offering {
  readonly offeringId: string;
  /** Any integer; the validator refuses Types outside 1..7 per row. */
  readonly type: number;
  readonly name: string;
}
export interface Provider {
  readonly id: number;
  readonly name: string;
}
export interface PortInStatus {
  readonly ticketId: string;
  readonly status: string;
  readonly portDate: string;
  readonly rejectReason: string;
  readonly rejectSummary: string;
}
