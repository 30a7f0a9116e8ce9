/**
 * The account's order list, `GET /v2/NumberPorts/Inbound/Dashboard/PortInInfo`
 * (docs/contract.md §1.1): every order the sandbox holds, however it was placed, written as
 * the service writes it — runs of numbers as ranges, ended orders `Closed`, and no ticket,
 * so that a client has to learn tickets from PortInStatus as it must with the service.
 */
import type { Phase } from "./carrier.js";
import type { HeldOrder } from "./ledger.js";
import { asTnRanges } from "./tn-ranges.js";

/** Not among the service's paths in service/: the sandbox spells it from the contract, so a client's misspelling shows. */
export const ORDER_LIST_PATH = "/v2/NumberPorts/Inbound/Dashboard/PortInInfo";

export interface OrderListJson {
  Orders: {
    OrderID: number;
    Requests: {
      RequestIdx: number;
      Assessment: string;
      HappyFoxTicket: string;
      NewService: string;
      ParentService: string;
      NumberToPort: { TnRange: string; ReadyToPort: boolean; SvCondition: string }[];
    }[];
  }[];
}

/** The service's assessment of an order: `Closed` once it has ended, one of its open words before. */
const ASSESSMENT: Readonly<Record<Phase, string>> = {
  SUBMITTED: "Pending",
  CONFIRMED: "Click-To-Port",
  COMPLETED: "Closed",
  REJECTED: "Closed",
  CANCELLED: "Closed",
};

/** What the list says of the numbers' service: nothing a client needs, but real text in its place. */
const SV_CONDITION: Readonly<Record<Phase, string>> = {
  SUBMITTED: "Awaiting losing carrier",
  CONFIRMED: "Port date confirmed",
  COMPLETED: "Ported in",
  REJECTED: "Rejected by losing carrier",
  CANCELLED: "Cancelled",
};

/** Help-desk tickets are numbered apart from port-in tickets. */
const HAPPYFOX_BASE = 700_000;

export function orderListJson(orders: Iterable<HeldOrder>, phaseOf: (order: HeldOrder) => Phase): OrderListJson {
  return {
    Orders: Array.from(orders, (order) => {
      const phase = phaseOf(order);
      return {
        OrderID: order.orderId,
        Requests: [
          {
            RequestIdx: 0,
            Assessment: ASSESSMENT[phase],
            HappyFoxTicket: `#${HAPPYFOX_BASE + order.orderId}`,
            NewService: order.service,
            ParentService: order.parent,
            NumberToPort: (order.listedAs ?? asTnRanges(order.numbers)).map((range) => ({ TnRange: range, ReadyToPort: phase === "CONFIRMED", SvCondition: SV_CONDITION[phase] })),
          },
        ],
      };
    }),
  };
}
