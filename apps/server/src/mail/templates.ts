import type { Language } from '@mustard/shared';

/**
 * The words of every message Mustard sends, in the five languages the product speaks. Kept on
 * the server (they are never shown by the web app), complete in every language: templates.test.ts
 * fails on a language without a template or a template without one of its values.
 *
 * A template is a subject and paragraphs; `{value}` is replaced by that value (HTML-escaped in
 * the HTML part), and a paragraph that is exactly `{link}` becomes the message's button (in the
 * text part the link alone on its line, so any mail program shows it whole).
 */
export type MailTemplate = 'verifyEmail' | 'accountExists' | 'passwordReset' | 'invitation' | 'reportCard';

export interface TemplateText {
  /** One line: it becomes a header. */
  subject: string;
  paragraphs: string[];
  /** The button's words, when a paragraph is `{link}`. */
  action?: string;
}

/** The values each template takes: the contract of enqueueMail's `values`. */
export const TEMPLATE_VALUES: Record<MailTemplate, readonly string[]> = {
  verifyEmail: ['name', 'link'],
  /** A sign-up with an address that has an account already: the way to a new password instead (issue 29: no enumeration). */
  accountExists: ['name', 'link'],
  passwordReset: ['name', 'link'],
  invitation: ['inviter', 'organisation', 'link', 'code'],
  reportCard: ['learner', 'school', 'term', 'year'],
};

/** The values that are links: absolute http(s) addresses, checked before they go into an href. */
export const LINK_VALUES = new Set(['link']);

export const MAIL_TEXTS: Record<Language, Record<MailTemplate, TemplateText>> = {
  en: {
    accountExists: {
      subject: 'You already have a Mustard account',
      paragraphs: [
        'Hello {name},',
        'Someone, perhaps you, tried to sign up to Mustard with this e-mail address, which already has an account. Nothing new was created.',
        'Sign in with your password; if you have forgotten it, choose a new one here:',
        '{link}',
        'If it was not you, ignore this message.',
      ],
      action: 'Choose a new password',
    },
    verifyEmail: {
      subject: 'Confirm your e-mail address for Mustard',
      paragraphs: [
        'Hello {name},',
        'Please confirm your e-mail address to finish signing up to Mustard. The link works once, for 24 hours:',
        '{link}',
        'If you did not sign up, ignore this message: nothing will be created.',
      ],
      action: 'Confirm my e-mail address',
    },
    passwordReset: {
      subject: 'Reset your Mustard password',
      paragraphs: [
        'Hello {name},',
        'Someone asked to reset the password of your Mustard account. To choose a new one, open this link within 30 minutes (it works once):',
        '{link}',
        'If it was not you, ignore this message: your password stays as it is.',
      ],
      action: 'Choose a new password',
    },
    invitation: {
      subject: '{inviter} invites you to {organisation} on Mustard',
      paragraphs: [
        'Hello,',
        '{inviter} invites you to join {organisation} on Mustard. Open this link to join:',
        '{link}',
        'Or sign in to Mustard and enter this invitation code: {code}',
        'If you were not expecting this invitation, ignore this message.',
      ],
      action: 'Join {organisation}',
    },
    reportCard: {
      subject: 'Report card from {school}: term {term}, {year}',
      paragraphs: [
        'Dear parent or guardian,',
        '{school} sends you the report card of {learner} for term {term} of {year}. It is attached to this message as a PDF.',
        'Please contact the school with any question about it.',
      ],
    },
  },
  sp: {
    accountExists: {
      subject: 'Ya tiene una cuenta de Mustard',
      paragraphs: [
        'Hola {name}:',
        'Alguien, quizá usted, intentó registrarse en Mustard con esta dirección de correo, que ya tiene una cuenta. No se ha creado nada nuevo.',
        'Inicie sesión con su contraseña; si la ha olvidado, elija una nueva aquí:',
        '{link}',
        'Si no fue usted, ignore este mensaje.',
      ],
      action: 'Elegir una nueva contraseña',
    },
    verifyEmail: {
      subject: 'Confirme su dirección de correo para Mustard',
      paragraphs: [
        'Hola {name}:',
        'Confirme su dirección de correo electrónico para terminar su registro en Mustard. El enlace funciona una sola vez, durante 24 horas:',
        '{link}',
        'Si usted no se registró, ignore este mensaje: no se creará nada.',
      ],
      action: 'Confirmar mi correo',
    },
    passwordReset: {
      subject: 'Restablezca su contraseña de Mustard',
      paragraphs: [
        'Hola {name}:',
        'Alguien pidió restablecer la contraseña de su cuenta de Mustard. Para elegir una nueva, abra este enlace en los próximos 30 minutos (funciona una sola vez):',
        '{link}',
        'Si no fue usted, ignore este mensaje: su contraseña no cambia.',
      ],
      action: 'Elegir una nueva contraseña',
    },
    invitation: {
      subject: '{inviter} le invita a {organisation} en Mustard',
      paragraphs: [
        'Hola:',
        '{inviter} le invita a unirse a {organisation} en Mustard. Abra este enlace para unirse:',
        '{link}',
        'O inicie sesión en Mustard e introduzca este código de invitación: {code}',
        'Si no esperaba esta invitación, ignore este mensaje.',
      ],
      action: 'Unirme a {organisation}',
    },
    reportCard: {
      subject: 'Boletín de {school}: trimestre {term}, {year}',
      paragraphs: [
        'Estimado padre, madre o tutor:',
        '{school} le envía el boletín de calificaciones de {learner} del trimestre {term} de {year}. Va adjunto a este mensaje en PDF.',
        'Para cualquier pregunta, póngase en contacto con la escuela.',
      ],
    },
  },
  gr: {
    accountExists: {
      subject: 'Sie haben bereits ein Mustard-Konto',
      paragraphs: [
        'Hallo {name},',
        'jemand, vielleicht Sie, wollte sich mit dieser E-Mail-Adresse bei Mustard anmelden, zu der es bereits ein Konto gibt. Es wurde nichts Neues angelegt.',
        'Melden Sie sich mit Ihrem Passwort an; wenn Sie es vergessen haben, wählen Sie hier ein neues:',
        '{link}',
        'Wenn Sie es nicht waren, ignorieren Sie diese Nachricht.',
      ],
      action: 'Neues Passwort wählen',
    },
    verifyEmail: {
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse für Mustard',
      paragraphs: [
        'Hallo {name},',
        'bitte bestätigen Sie Ihre E-Mail-Adresse, um Ihre Anmeldung bei Mustard abzuschließen. Der Link gilt einmal, 24 Stunden lang:',
        '{link}',
        'Wenn Sie sich nicht angemeldet haben, ignorieren Sie diese Nachricht: Es wird nichts angelegt.',
      ],
      action: 'E-Mail-Adresse bestätigen',
    },
    passwordReset: {
      subject: 'Setzen Sie Ihr Mustard-Passwort zurück',
      paragraphs: [
        'Hallo {name},',
        'jemand hat verlangt, das Passwort Ihres Mustard-Kontos zurückzusetzen. Um ein neues zu wählen, öffnen Sie diesen Link innerhalb von 30 Minuten (er gilt einmal):',
        '{link}',
        'Wenn Sie es nicht waren, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.',
      ],
      action: 'Neues Passwort wählen',
    },
    invitation: {
      subject: '{inviter} lädt Sie zu {organisation} bei Mustard ein',
      paragraphs: [
        'Hallo,',
        '{inviter} lädt Sie ein, {organisation} bei Mustard beizutreten. Öffnen Sie diesen Link, um beizutreten:',
        '{link}',
        'Oder melden Sie sich bei Mustard an und geben Sie diesen Einladungscode ein: {code}',
        'Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese Nachricht.',
      ],
      action: '{organisation} beitreten',
    },
    reportCard: {
      subject: 'Zeugnis von {school}: Trimester {term}, {year}',
      paragraphs: [
        'Liebe Eltern, liebe Erziehungsberechtigte,',
        '{school} sendet Ihnen das Zeugnis von {learner} für das Trimester {term} {year}. Es ist dieser Nachricht als PDF angehängt.',
        'Bei Fragen dazu wenden Sie sich bitte an die Schule.',
      ],
    },
  },
  it: {
    accountExists: {
      subject: 'Hai già un account Mustard',
      paragraphs: [
        'Ciao {name},',
        'qualcuno, forse tu, ha provato a registrarsi a Mustard con questo indirizzo e-mail, che ha già un account. Non è stato creato nulla di nuovo.',
        'Accedi con la tua password; se l’hai dimenticata, scegline una nuova qui:',
        '{link}',
        'Se non sei stato tu, ignora questo messaggio.',
      ],
      action: 'Scegli una nuova password',
    },
    verifyEmail: {
      subject: 'Conferma il tuo indirizzo e-mail per Mustard',
      paragraphs: [
        'Ciao {name},',
        'conferma il tuo indirizzo e-mail per completare la registrazione a Mustard. Il link funziona una sola volta, per 24 ore:',
        '{link}',
        'Se non ti sei registrato, ignora questo messaggio: non verrà creato nulla.',
      ],
      action: 'Conferma il mio indirizzo e-mail',
    },
    passwordReset: {
      subject: 'Reimposta la tua password di Mustard',
      paragraphs: [
        'Ciao {name},',
        'qualcuno ha chiesto di reimpostare la password del tuo account Mustard. Per sceglierne una nuova, apri questo link entro 30 minuti (funziona una sola volta):',
        '{link}',
        'Se non sei stato tu, ignora questo messaggio: la tua password resta invariata.',
      ],
      action: 'Scegli una nuova password',
    },
    invitation: {
      subject: '{inviter} ti invita in {organisation} su Mustard',
      paragraphs: [
        'Ciao,',
        '{inviter} ti invita a unirti a {organisation} su Mustard. Apri questo link per unirti:',
        '{link}',
        'Oppure accedi a Mustard e inserisci questo codice di invito: {code}',
        'Se non aspettavi questo invito, ignora questo messaggio.',
      ],
      action: 'Unisciti a {organisation}',
    },
    reportCard: {
      subject: 'Pagella da {school}: trimestre {term}, {year}',
      paragraphs: [
        'Gentile genitore o tutore,',
        '{school} ti invia la pagella di {learner} per il trimestre {term} del {year}. È allegata a questo messaggio in PDF.',
        'Per qualsiasi domanda, contatta la scuola.',
      ],
    },
  },
  rs: {
    accountExists: {
      subject: 'У вас уже есть учётная запись Mustard',
      paragraphs: [
        'Здравствуйте, {name}!',
        'Кто-то, возможно вы, пытался зарегистрироваться в Mustard с этим адресом электронной почты, для которого уже есть учётная запись. Ничего нового не создано.',
        'Войдите со своим паролем; если вы его забыли, выберите новый здесь:',
        '{link}',
        'Если это были не вы, просто проигнорируйте это сообщение.',
      ],
      action: 'Выбрать новый пароль',
    },
    verifyEmail: {
      subject: 'Подтвердите адрес электронной почты для Mustard',
      paragraphs: [
        'Здравствуйте, {name}!',
        'Подтвердите адрес электронной почты, чтобы завершить регистрацию в Mustard. Ссылка действует один раз в течение 24 часов:',
        '{link}',
        'Если вы не регистрировались, просто не обращайте внимания на это письмо: ничего создано не будет.',
      ],
      action: 'Подтвердить адрес',
    },
    passwordReset: {
      subject: 'Сброс пароля Mustard',
      paragraphs: [
        'Здравствуйте, {name}!',
        'Кто-то запросил сброс пароля вашей учётной записи Mustard. Чтобы выбрать новый пароль, откройте эту ссылку в течение 30 минут (она действует один раз):',
        '{link}',
        'Если это были не вы, не обращайте внимания на это письмо: ваш пароль останется прежним.',
      ],
      action: 'Выбрать новый пароль',
    },
    invitation: {
      subject: '{inviter} приглашает вас в {organisation} в Mustard',
      paragraphs: [
        'Здравствуйте!',
        '{inviter} приглашает вас присоединиться к {organisation} в Mustard. Откройте эту ссылку, чтобы присоединиться:',
        '{link}',
        'Или войдите в Mustard и введите этот код приглашения: {code}',
        'Если вы не ждали этого приглашения, не обращайте внимания на это письмо.',
      ],
      action: 'Присоединиться к {organisation}',
    },
    reportCard: {
      subject: 'Табель от {school}: четверть {term}, {year}',
      paragraphs: [
        'Уважаемые родители или опекуны!',
        '{school} отправляет вам табель успеваемости ученика {learner} за четверть {term} {year} года. Он приложен к этому письму в формате PDF.',
        'С вопросами о нём обращайтесь, пожалуйста, в школу.',
      ],
    },
  },
};
