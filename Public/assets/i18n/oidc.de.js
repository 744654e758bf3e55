// German strings of the sign-in with other accounts (OpenID Connect): the login and sign-up pages'
// "Weiter mit …" buttons, the return from the provider and its link form (views/auth/oidc.js), and
// the settings' "Anmeldung mit anderen Konten" (views/settings/identities.js). Loaded with
// loadStrings('oidc') where needed. Keys are shared with oidc.en.js.
export default {
  'oidc.continueWith': 'Weiter mit {name}',
  'oidc.providersLabel': 'Mit einem anderen Konto anmelden',
  'oidc.completing': 'Anmeldung wird abgeschlossen…',
  'oidc.completingTitle': 'Einen Moment bitte',
  'oidc.providerFallback': 'deinem Anbieter',

  'oidc.linkTitle': 'Mit bestehendem Konto verbinden',
  'oidc.linkLead': 'Es gibt schon ein Konto mit der Adresse {mail}. Gib das Passwort dieses Kontos ein, dann verbinden wir {provider} damit. Danach kannst du dich mit beidem anmelden.',
  'oidc.linkSubmit': 'Verbinden und anmelden',
  'oidc.wrongPassword': 'Das Passwort ist nicht richtig. Versuche es noch einmal.',
  'oidc.linkExpired': 'Diese Anmeldung ist abgelaufen. Bitte melde dich noch einmal mit {provider} an.',
  'oidc.linkTaken': 'Dieses Konto bei {provider} ist schon mit einem anderen Konto verbunden.',
  'oidc.again': 'Erneut mit {provider} anmelden',
  'oidc.backToLogin': 'Zurück zur Anmeldung',

  'oidc.error.verify': 'Die Anmeldung bei {provider} konnte nicht bestätigt werden. Zu deiner Sicherheit haben wir sie abgebrochen. Bitte versuche es noch einmal.',
  'oidc.error.state_invalid': 'Diese Anmeldung ist abgelaufen oder wurde schon verwendet. Bitte melde dich noch einmal an.',
  'oidc.error.access_denied': 'Die Anmeldung bei {provider} wurde abgebrochen. Du kannst es jederzeit noch einmal versuchen.',
  'oidc.error.mail_unverified': 'Deine E-Mail-Adresse ist bei {provider} nicht bestätigt. Bestätige sie dort und versuche es dann noch einmal.',
  'oidc.error.mail_missing': 'Bei {provider} ist keine E-Mail-Adresse für uns freigegeben. Ohne sie können wir kein Konto anlegen oder verbinden.',
  'oidc.error.provider_unavailable': 'Die Anmeldung bei {provider} ist gerade nicht erreichbar. Bitte versuche es später noch einmal.',
  'oidc.error.provider_unknown': 'Diese Anmeldemöglichkeit gibt es auf diesem Server nicht. Melde dich mit deiner E-Mail-Adresse und deinem Passwort an.',
  'oidc.error.exchange_failed': 'Die Anmeldung bei {provider} konnte nicht abgeschlossen werden. Bitte versuche es noch einmal.',
  'oidc.error.other': 'Die Anmeldung bei {provider} hat nicht geklappt. Bitte versuche es noch einmal.',

  'identities.title': 'Anmeldung mit anderen Konten',
  'identities.lead': 'Mit diesen Konten kannst du dich hier anmelden, ohne dein Passwort einzugeben.',
  'identities.loading': 'Verbundene Anmeldungen werden geladen…',
  'identities.loadError': 'Die verbundenen Anmeldungen konnten nicht geladen werden.',
  'identities.empty': 'Noch keine Anmeldung verbunden.',
  'identities.emptyHelp': 'Um eine zu verbinden, melde dich ab und wähle auf der Anmeldeseite „Weiter mit …“. Gehört die Adresse zu diesem Konto, fragen wir dich einmal nach seinem Passwort.',
  'identities.noMail': 'ohne E-Mail-Adresse',
  'identities.linkedAt': 'Verbunden am {date}',
  'identities.unlink': 'Trennen',
  'identities.unlinkTitle': '{name} trennen?',
  'identities.unlinkText': 'Du kannst dich danach nicht mehr mit {name} anmelden, nur noch mit deiner E-Mail-Adresse und deinem Passwort. Deine Stapel und Karten bleiben erhalten.',
  'identities.unlinked': '{name} ist getrennt.',
  'identities.unlinkError': 'Die Anmeldung konnte nicht getrennt werden. Bitte versuche es erneut.',
  'identities.noPassword': 'Dein Konto hat noch kein eigenes Passwort. Bevor du eine Anmeldung trennen kannst, lege eines fest: oben unter „Konto“.',
  'identities.passwordRequired': '{name} kann noch nicht getrennt werden: Dein Konto hat kein eigenes Passwort, und ohne Passwort könntest du dich danach nicht mehr anmelden. Lege zuerst eines fest.',
  'identities.setPassword': 'Passwort festlegen',
};
