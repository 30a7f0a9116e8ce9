/**
 * What a letter of authorization says, in English and in French (docs/contract.md §2,
 * "Letters of authorization"): the words only; the values come from the sheet.
 */

export type LetterLanguage = "en" | "fr";

export interface Wording {
  readonly title: string;
  /** A label's colon: French sets it off with a no-break space ("Client :"). */
  readonly colon: string;
  readonly continued: string;
  readonly customer: string;
  readonly billingAddress: string;
  readonly carrier: string;
  readonly account: string;
  readonly portDate: string;
  readonly noPortDate: string;
  readonly notGiven: string;
  /** The numbers' heading, with their count. */
  numbersHeading(count: number): string;
  /** The paragraph that authorizes the port, naming the customer and carrier. */
  authorization(customer: string, carrier: string): string;
  readonly to: string;
  readonly name: string;
  readonly jobTitle: string;
  readonly signature: string;
  readonly date: string;
  /** "Page 2 of 3". */
  page(at: number, of: number): string;
  readonly country: Readonly<Record<string, string>>;
}

const count = (n: number, language: LetterLanguage): string => n.toLocaleString(language === "fr" ? "fr-CA" : "en-CA");

export const WORDING: Readonly<Record<LetterLanguage, Wording>> = {
  en: {
    title: "Letter of Authorization",
    colon: ":",
    continued: "Letter of Authorization (continued)",
    customer: "Customer",
    billingAddress: "Billing address",
    carrier: "Current carrier",
    account: "Account number with the current carrier",
    portDate: "Requested port date",
    noPortDate: "as soon as possible",
    notGiven: "(not given)",
    numbersHeading: (n) => `Telephone numbers to port (${count(n, "en")} number${n === 1 ? "" : "s"})`,
    authorization: (customer, carrier) =>
      `${customer} authorizes the transfer (porting) of the telephone numbers listed in this letter from ${carrier} ` +
      "to the new service provider, and the closing of the corresponding service with the current carrier once the port is complete. " +
      "The undersigned is authorized to act for the customer and confirms that the information above matches the account's records.",
    to: "to",
    name: "Name of the authorized person",
    jobTitle: "Title",
    signature: "Signature",
    date: "Date",
    page: (at, of) => `Page ${at} of ${of}`,
    country: { CA: "Canada", US: "United States" },
  },
  fr: {
    title: "Lettre d’autorisation",
    colon: "\u00a0:",
    continued: "Lettre d’autorisation (suite)",
    customer: "Client",
    billingAddress: "Adresse de facturation",
    carrier: "Fournisseur actuel",
    account: "Numéro de compte chez le fournisseur actuel",
    portDate: "Date de transfert demandée",
    noPortDate: "dès que possible",
    notGiven: "(non précisé)",
    numbersHeading: (n) => `Numéros de téléphone à transférer (${count(n, "fr")} numéro${n === 1 ? "" : "s"})`,
    authorization: (customer, carrier) =>
      `${customer} autorise le transfert (portage) des numéros de téléphone énumérés dans cette lettre de ${carrier} ` +
      "vers le nouveau fournisseur de services, et la fermeture du service correspondant chez le fournisseur actuel une fois le transfert effectué. " +
      "Le ou la signataire est autorisé(e) à agir au nom du client et confirme que les renseignements ci-dessus correspondent au dossier du compte.",
    to: "à",
    name: "Nom de la personne autorisée",
    jobTitle: "Titre",
    signature: "Signature",
    date: "Date",
    page: (at, of) => `Page ${at} de ${of}`,
    country: { CA: "Canada", US: "États-Unis" },
  },
};
