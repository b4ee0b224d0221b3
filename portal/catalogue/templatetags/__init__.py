"""Template filters of the rule catalogue in the reader's language (catalogue_i18n); they import Django and
portal.catalogue.translations only."""
