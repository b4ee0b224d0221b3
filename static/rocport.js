// ROCport's only script besides htmx. The Content-Security-Policy forbids inline handlers, so behaviour that
// plain HTML cannot express is attached here by data attributes.
// data-autosubmit: a <select> whose change submits its form (the team and language switches; a <noscript>
// button does the same without JavaScript).
document.addEventListener("change", function (event) {
  var field = event.target;
  if (field.matches && field.matches("select[data-autosubmit]") && field.form) {
    field.form.submit();
  }
});

// A big file's page leaves runs of lines out (gap rows with data-start/data-end). A link to #L<n> inside one,
// from a finding or another page, opens that gap first and then scrolls to the line.
function openGapFor(hash) {
  var match = /^#L(\d+)$/.exec(hash || "");
  if (!match || document.getElementById(hash.slice(1)) || !window.htmx) return;
  var line = Number(match[1]);
  var gaps = document.querySelectorAll("tr.gap[data-start]");
  for (var i = 0; i < gaps.length; i++) {
    var gap = gaps[i], link = gap.querySelector("a[hx-get]");
    if (link && line >= Number(gap.dataset.start) && line <= Number(gap.dataset.end)) {
      var start = Math.max(Number(gap.dataset.start), line - 200);
      var url = link.getAttribute("hx-get").replace(/start=\d+/, "start=" + start);
      var before = start > Number(gap.dataset.start) ? "&before=" + gap.dataset.start : "";
      htmx.ajax("GET", url + before, { target: gap, swap: "outerHTML" }).then(function () {
        var row = document.getElementById(hash.slice(1));
        if (row) row.scrollIntoView();
      });
      return;
    }
  }
}
document.addEventListener("DOMContentLoaded", function () { openGapFor(location.hash); });
window.addEventListener("hashchange", function () { openGapFor(location.hash); });

// data-copy="#id": a button that copies that field's value to the clipboard (the new API token), then says so in the
// [data-copy-status] beside it. Hidden in the HTML: it appears only where this script runs.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) { button.hidden = false; });
});
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("button[data-copy]");
  if (!button) return;
  var field = document.querySelector(button.getAttribute("data-copy"));
  var status = button.parentElement.querySelector("[data-copy-status]");
  if (!field) return;
  function done(ok) {
    if (status) status.textContent = ok ? button.dataset.copied : button.dataset.copyFailed;
  }
  field.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(function () { done(true); }, function () { done(document.execCommand("copy")); });
  } else {
    done(document.execCommand("copy"));  // plain http on another host: no Clipboard API there
  }
});

// data-print: a button that opens the browser's print dialog (the reports; "Save as PDF" there makes the PDF).
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("button[data-print]");
  if (button) window.print();
});
