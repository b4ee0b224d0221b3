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
