/**
 * The page's one script, inline and allowed by its hash (docs/contract.md §2 `report`): the
 * row table's filters, search and pages over the rows' JSON data block. Plain browser
 * JavaScript, written for the page rather than bundled: it builds cells with textContent
 * only, so no value from the sheet or the service is ever parsed as HTML, and it sends
 * nothing anywhere.
 */
export const PAGE_SCRIPT = `
(function () {
  "use strict";
  var PAGE = 100;
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var rows = data.rows;
  var statusSelect = document.getElementById("filter-status");
  var customerSelect = document.getElementById("filter-customer");
  var search = document.getElementById("filter-number");
  var body = document.getElementById("rows-body");
  var shown = document.getElementById("rows-shown");
  var prev = document.getElementById("rows-prev");
  var next = document.getElementById("rows-next");
  var matching = [];
  var page = 0;

  function option(select, value, label) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    select.appendChild(o);
  }
  data.statuses.forEach(function (s) { option(statusSelect, s, s); });
  data.customers.forEach(function (c, i) { option(customerSelect, String(i), c); });

  function filter() {
    var status = statusSelect.value;
    var customer = customerSelect.value === "" ? -1 : Number(customerSelect.value);
    var digits = search.value.replace(/[^0-9]/g, "");
    // Any NANP writing finds the number: +1 416 555 1100 and 1-416-555-1100 carry the country code 1.
    if (digits.length === 11 && digits.charAt(0) === "1") digits = digits.slice(1);
    var text = search.value.trim().toLowerCase();
    matching = [];
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      if (status !== "" && r[3] !== status) continue;
      if (customer !== -1 && r[2] !== customer) continue;
      if (text !== "" && (digits === "" ? r[1].toLowerCase().indexOf(text) === -1 : r[1].replace(/[^0-9]/g, "").indexOf(digits) === -1)) continue;
      matching.push(i);
    }
    page = 0;
    render();
  }

  function cell(tr, text) {
    var td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function render() {
    var pages = Math.max(1, Math.ceil(matching.length / PAGE));
    if (page >= pages) page = pages - 1;
    var from = page * PAGE;
    var to = Math.min(matching.length, from + PAGE);
    var fragment = document.createDocumentFragment();
    for (var k = from; k < to; k++) {
      var r = rows[matching[k]];
      var tr = document.createElement("tr");
      cell(tr, String(r[0]));
      cell(tr, r[1]);
      cell(tr, data.customers[r[2]]);
      cell(tr, r[3]).className = "status status-" + data.kinds[r[3]];
      cell(tr, r[4]);
      cell(tr, r[5]);
      cell(tr, r[6]);
      cell(tr, r[7]);
      fragment.appendChild(tr);
    }
    body.replaceChildren(fragment);
    shown.textContent = matching.length === 0
      ? "no row matches"
      : "rows " + (from + 1) + " to " + to + " of " + matching.length + " matching (" + rows.length + (data.sheetRows === rows.length ? " in the sheet)" : " in this table, " + data.sheetRows + " in the sheet)");
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
  }

  statusSelect.addEventListener("change", filter);
  customerSelect.addEventListener("change", filter);
  search.addEventListener("input", filter);
  prev.addEventListener("click", function () { page--; render(); });
  next.addEventListener("click", function () { page++; render(); });
  filter();
  document.documentElement.setAttribute("data-ready-ms", String(Math.round(performance.now())));
  document.documentElement.setAttribute("data-ready", "true");
})();
`;
