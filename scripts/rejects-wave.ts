/**
 * The rejects wave of docs/after-cutover.md, played against the built-in sandbox and drawn:
 * a 340-number wave sent by two operators in two parts, 114 numbers the losing carrier
 * rejects for the end user's name, fixed and sent again, two orders placed in the web portal
 * (one of them silent for eight business days), then `portin report` and a PNG of the page's
 * first screen, taken in the same headless Chromium the report's tests use.
 *
 *     npm run build && node dist/scripts/rejects-wave.js [docs/report-first-screen.png]
 *
 * It runs the built CLI (dist/src/cli.cjs) in a temporary folder, as a user would, and keeps
 * nothing but the picture. The one thing no sandbox can play in minutes is a portal order's
 * eight quiet business days: a check that long ago is written into the journal as `status`
 * writes its records (docs/contract.md §5), and the real checks that follow read it unchanged.
 */
import { spawn } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import sparticuz from "@sparticuz/chromium";
import { chromium } from "playwright-core";
import { startSandbox } from "../src/sandbox/server.js";
import type { RunningSandbox } from "../src/sandbox/server.js";
import { PACKAGE_ROOT } from "../src/version.js";

const CLI = join(PACKAGE_ROOT, "dist", "src", "cli.cjs");
const HEADER =
  "number,pilot_number,portform.RequestedPortTime,portform.RequestedPortDate,portform.CustomerAccountNumber,portform.CustomerName,portform.CustomerStreetNumber,portform.CustomerStreetName,portform.CustomerCity,portform.CustomerProvince,portform.CustomerPostalCode,portform.CustomerCountry,portform.EmailAddress,portform.CurrentProvider";

interface Customer {
  readonly account: string;
  readonly name: string;
  readonly address: string;
  readonly provider: string;
  readonly pilot: string;
  readonly window: string;
  /** RequestedPortDate, "" for the carrier's first date. */
  readonly date?: string;
}

const CREDIT_VALLEY: Customer = { account: "CV-77", name: "Credit Valley Accounting LLP", address: "88,Queen St E,Brampton,ON,L6V 1A1,CA,it@cva.ca", provider: "Bell Canada", pilot: "4165550100", window: "09:30" };
const HARBOURFRONT: Customer = { account: "HL-9", name: "Harbourfront Logistics Inc.", address: "207,Queens Quay W,Toronto,ON,M5J 1A7,CA,ops@hfl.ca", provider: "Rogers Communications", pilot: "5145550100", window: "" };
const MAPLE: Customer = { account: "7741-220-118", name: "Maple Leaf Dental Clinics Inc.", address: "120,King St W,Toronto,ON,M5H 1J9,CA,it@mapleleafdental.ca", provider: "Bell Canada", pilot: "4165550100", window: "07:00" };
const DUBOIS: Customer = { account: "VID-55201-8", name: "Cabinet Dubois Avocats", address: "1250,Rue Sainte-Catherine O,Montréal,QC,H3G 1P1,CA,ti@duboisavocats.ca", provider: "Vidéotron", pilot: "5145550100", window: "" };
const PRAIRIE: Customer = { account: "SK-40-1187", name: "Prairie Grain Co-op", address: "1900,Albert St,Regina,SK,S4P 4K1,CA,it@prairiegrain.ca", provider: "SaskTel", pilot: "6045550100", window: "10:00", date: "2026-12-10" };

function row(number: string, customer: Customer, name = customer.name): string {
  return [number, customer.pilot, customer.window, customer.date ?? "", customer.account, `"${name}"`, customer.address, `"${customer.provider}"`].join(",");
}

const run = (n: number, from: number, npa = "416"): string[] => Array.from({ length: n }, (_, i) => `${npa}-555-${String(from + i).padStart(4, "0")}`);
const digits = (number: string): string => number.replace(/\D/g, "");

/** Part one, operator A: the 114 numbers the carrier rejects; `fixed` once the names are corrected. */
function partOne(fixed: boolean): string[] {
  return [
    ...run(60, 2000).map((n) => row(n, CREDIT_VALLEY, fixed ? "Credit Valley Accounting L.L.P." : CREDIT_VALLEY.name)),
    ...run(54, 2100, "514").map((n) => row(n, HARBOURFRONT, fixed ? "Harbourfront Logistics Incorporated" : HARBOURFRONT.name)),
  ];
}

/** Part two, operator B: 226 more, six of Credit Valley's under the name it had before, and the portal orders' numbers. */
const PART_TWO = [
  ...run(6, 2400, "604").map((n) => row(n, { ...CREDIT_VALLEY, pilot: "6045550100" })),
  ...run(100, 2200).map((n) => row(n, MAPLE)),
  ...run(72, 2300, "514").map((n) => row(n, DUBOIS)),
  ...run(48, 2500, "604").map((n) => row(n, PRAIRIE)),
];

/** Two orders placed in the web portal for numbers of the sheet: four of Prairie's CONFIRMED for a week before the sheet's date, two of Dubois's waiting. */
const PORTAL = [
  { ticket: "PI-P00001", numbers: run(4, 2544, "604").map(digits), status: "CONFIRMED" },
  { ticket: "PI-P00002", numbers: run(2, 2370, "514").map(digits), status: "SUBMITTED" },
] as const;

function cli(args: readonly string[], cwd: string, sandbox: RunningSandbox): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    // `report` asks no service: it takes no connection options.
    const connection = args[0] === "report" ? [] : ["--base-url", sandbox.url, "--user", sandbox.user, "--password", sandbox.password];
    const child = spawn(process.execPath, [CLI, ...args, ...connection], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr }));
  });
}

async function main(): Promise<void> {
  const png = resolve(process.argv[2] ?? join(PACKAGE_ROOT, "docs", "report-first-screen.png"));
  const dir = await mkdtemp(join(tmpdir(), "portin-wave-"));
  const account = JSON.parse(await readFile(join(PACKAGE_ROOT, "fixtures", "sandbox-account.json"), "utf8")) as Record<string, unknown>;
  await writeFile(join(dir, "account.json"), JSON.stringify({ ...account, orders: PORTAL }));
  // Seed 23: the carrier's first two orders are rejected for 6P NAME.
  const sandbox = await startSandbox({ startDate: "2026-11-30", rejectRate: 1, seed: 23, accountFile: join(dir, "account.json") });
  const sheet = join(dir, "wave.csv");
  const state = join(dir, "wave.state.jsonl");
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  const step = async (who: string, ...args: string[]): Promise<void> => {
    const { stderr } = await cli([...args, sheet, "--state", state], dir, sandbox);
    say(`[${who}] portin ${args.join(" ")}\n${stderr.trimEnd().replace(/^/gm, "  ")}`);
  };
  try {
    await writeFile(sheet, [HEADER, ...partOne(false)].join("\n") + "\n");
    await step("A", "submit");
    sandbox.setRejectRate(0);
    await step("A", "status");
    sandbox.advanceDays(1);
    await step("B", "status");
    // The corrected names, and operator B's part of the wave; the portal orders were read by a check eight business days ago.
    await writeFile(sheet, [HEADER, ...partOne(true), ...PART_TWO].join("\n") + "\n");
    const quiet = new Date(Date.now() - 12 * 86_400_000).toISOString();
    for (const order of PORTAL) {
      await appendFile(state, JSON.stringify({ type: "status", ticket: order.ticket, status: order.status, portDate: order.status === "CONFIRMED" ? "2026-12-03" : null, reason: "", summary: "", details: "", numbers: order.numbers, at: quiet }) + "\n");
    }
    await step("A", "submit");
    await step("B", "status");
    // Two nights on: the carrier has confirmed the resent orders, whose port date is the day after.
    for (let night = 0; night < 2; night++) {
      sandbox.advanceDays(1);
      await step(night % 2 === 0 ? "A" : "B", "status");
    }
    const calendar = join(dir, "wave.ics");
    await step("A", "report", "--calendar", calendar);
    await screenshot(join(dir, "wave.report.html"), png);
    say(`wrote ${png}`);
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The page's first screen, 1280×900, as a lead opening the mail's attachment sees it. */
async function screenshot(page: string, png: string): Promise<void> {
  const browser = await chromium.launch({
    executablePath: await sparticuz.executablePath(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await tab.goto(pathToFileURL(page).href);
    await tab.waitForSelector("html[data-ready=true]");
    await tab.screenshot({ path: png });
  } finally {
    await browser.close();
  }
}

await main();
