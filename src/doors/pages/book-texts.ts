import type { Language } from '../../platform/i18n/index.ts';

// The booking page's words, in the six languages of the service.

export type BookTextKey =
  | 'chooseSlot'
  | 'placesLeft'
  | 'fullWaitlist'
  | 'noSlots'
  | 'name'
  | 'contact'
  | 'contactHint'
  | 'book'
  | 'codeTitle'
  | 'codeSent'
  | 'waitlistHeld'
  | 'code'
  | 'confirm'
  | 'confirmedTitle'
  | 'confirmedText'
  | 'waitingTitle'
  | 'waitingText'
  | 'calendar'
  | 'manage'
  | 'notFoundTitle'
  | 'notFoundText'
  | 'stateHeld'
  | 'stateConfirmed'
  | 'stateWaitlisted'
  | 'stateOffered'
  | 'stateCancelled'
  | 'stateAttended'
  | 'stateLapsed'
  | 'cancelBooking'
  | 'acceptOffer'
  | 'offerUntil'
  | 'language';

export const BOOK_TEXTS: Record<Language, Record<BookTextKey, string>> = {
  en: {
    chooseSlot: 'Choose a time',
    placesLeft: '{count} places left',
    fullWaitlist: 'full: join the waitlist',
    noSlots: 'No time can be booked in the coming days.',
    name: 'Your name',
    contact: 'Email or phone number',
    contactHint: 'We send a confirmation code there. Nobody else sees it.',
    book: 'Book',
    codeTitle: 'Enter your code',
    codeSent: 'We sent a 6-digit code to {contact}. Your place is held until {until}.',
    waitlistHeld:
      'This time is full: confirm to join its waitlist. If a place frees up we will offer it to you.',
    code: 'Confirmation code',
    confirm: 'Confirm',
    confirmedTitle: 'Booked',
    confirmedText: '{resource}, {time}. See you then.',
    waitingTitle: 'You are on the waitlist',
    waitingText: '{resource}, {time}. We will write if a place frees up.',
    calendar: 'Add to your calendar (.ics)',
    manage: 'Your booking link (cancel or change)',
    notFoundTitle: 'Nothing to book here',
    notFoundText: 'This booking page does not exist or is closed.',
    stateHeld: 'Held: waiting for your code',
    stateConfirmed: 'Booked',
    stateWaitlisted: 'On the waitlist',
    stateOffered: 'A place is offered to you',
    stateCancelled: 'Cancelled',
    stateAttended: 'Attended',
    stateLapsed: 'Expired',
    cancelBooking: 'Cancel this booking',
    acceptOffer: 'Accept the place',
    offerUntil: 'Accept before {time}, or it goes to the next person waiting.',
    language: 'Language',
  },
  fr: {
    chooseSlot: 'Choisissez un horaire',
    placesLeft: '{count} places restantes',
    fullWaitlist: 'complet : liste d’attente',
    noSlots: 'Aucun horaire réservable dans les prochains jours.',
    name: 'Votre nom',
    contact: 'E-mail ou numéro de téléphone',
    contactHint: 'Nous y envoyons un code de confirmation. Personne d’autre ne le voit.',
    book: 'Réserver',
    codeTitle: 'Saisissez votre code',
    codeSent: 'Nous avons envoyé un code à 6 chiffres à {contact}. Votre place est gardée jusqu’à {until}.',
    waitlistHeld:
      'Cet horaire est complet : confirmez pour rejoindre la liste d’attente. Si une place se libère, nous vous la proposerons.',
    code: 'Code de confirmation',
    confirm: 'Confirmer',
    confirmedTitle: 'Réservé',
    confirmedText: '{resource}, {time}. À bientôt.',
    waitingTitle: 'Vous êtes sur la liste d’attente',
    waitingText: '{resource}, {time}. Nous vous écrirons si une place se libère.',
    calendar: 'Ajouter à votre agenda (.ics)',
    manage: 'Lien de votre réservation (annuler ou modifier)',
    notFoundTitle: 'Rien à réserver ici',
    notFoundText: 'Cette page de réservation n’existe pas ou est fermée.',
    stateHeld: 'Gardée : en attente de votre code',
    stateConfirmed: 'Réservé',
    stateWaitlisted: 'Sur la liste d’attente',
    stateOffered: 'Une place vous est proposée',
    stateCancelled: 'Annulée',
    stateAttended: 'Honorée',
    stateLapsed: 'Expirée',
    cancelBooking: 'Annuler cette réservation',
    acceptOffer: 'Accepter la place',
    offerUntil: 'Acceptez avant {time}, sinon elle passe à la personne suivante.',
    language: 'Langue',
  },
  de: {
    chooseSlot: 'Wählen Sie eine Zeit',
    placesLeft: 'noch {count} Plätze',
    fullWaitlist: 'ausgebucht: Warteliste',
    noSlots: 'In den nächsten Tagen ist keine Zeit buchbar.',
    name: 'Ihr Name',
    contact: 'E-Mail oder Telefonnummer',
    contactHint: 'Wir senden dorthin einen Bestätigungscode. Niemand sonst sieht ihn.',
    book: 'Buchen',
    codeTitle: 'Code eingeben',
    codeSent: 'Wir haben einen 6-stelligen Code an {contact} gesendet. Ihr Platz wird bis {until} gehalten.',
    waitlistHeld:
      'Diese Zeit ist ausgebucht: Bestätigen Sie, um auf die Warteliste zu kommen. Wird ein Platz frei, bieten wir ihn Ihnen an.',
    code: 'Bestätigungscode',
    confirm: 'Bestätigen',
    confirmedTitle: 'Gebucht',
    confirmedText: '{resource}, {time}. Bis dann.',
    waitingTitle: 'Sie stehen auf der Warteliste',
    waitingText: '{resource}, {time}. Wir schreiben Ihnen, wenn ein Platz frei wird.',
    calendar: 'In den Kalender (.ics)',
    manage: 'Ihr Buchungslink (stornieren oder ändern)',
    notFoundTitle: 'Hier ist nichts zu buchen',
    notFoundText: 'Diese Buchungsseite gibt es nicht oder sie ist geschlossen.',
    stateHeld: 'Gehalten: wartet auf Ihren Code',
    stateConfirmed: 'Gebucht',
    stateWaitlisted: 'Auf der Warteliste',
    stateOffered: 'Ihnen wird ein Platz angeboten',
    stateCancelled: 'Storniert',
    stateAttended: 'Wahrgenommen',
    stateLapsed: 'Abgelaufen',
    cancelBooking: 'Diese Buchung stornieren',
    acceptOffer: 'Platz annehmen',
    offerUntil: 'Nehmen Sie bis {time} an, sonst geht er an die nächste wartende Person.',
    language: 'Sprache',
  },
  es: {
    chooseSlot: 'Elija un horario',
    placesLeft: 'quedan {count} plazas',
    fullWaitlist: 'completo: lista de espera',
    noSlots: 'No hay horarios reservables en los próximos días.',
    name: 'Su nombre',
    contact: 'Correo o número de teléfono',
    contactHint: 'Le enviamos ahí un código de confirmación. Nadie más lo ve.',
    book: 'Reservar',
    codeTitle: 'Introduzca su código',
    codeSent: 'Enviamos un código de 6 dígitos a {contact}. Su plaza se guarda hasta las {until}.',
    waitlistHeld:
      'Este horario está completo: confirme para entrar en la lista de espera. Si se libera una plaza, se la ofreceremos.',
    code: 'Código de confirmación',
    confirm: 'Confirmar',
    confirmedTitle: 'Reservado',
    confirmedText: '{resource}, {time}. Hasta entonces.',
    waitingTitle: 'Está en la lista de espera',
    waitingText: '{resource}, {time}. Le escribiremos si se libera una plaza.',
    calendar: 'Añadir a su calendario (.ics)',
    manage: 'Enlace de su reserva (cancelar o cambiar)',
    notFoundTitle: 'Nada que reservar aquí',
    notFoundText: 'Esta página de reservas no existe o está cerrada.',
    stateHeld: 'Guardada: esperando su código',
    stateConfirmed: 'Reservado',
    stateWaitlisted: 'En la lista de espera',
    stateOffered: 'Se le ofrece una plaza',
    stateCancelled: 'Cancelada',
    stateAttended: 'Asistida',
    stateLapsed: 'Caducada',
    cancelBooking: 'Cancelar esta reserva',
    acceptOffer: 'Aceptar la plaza',
    offerUntil: 'Acepte antes de las {time}, o pasará a la siguiente persona en espera.',
    language: 'Idioma',
  },
  'zh-Hans': {
    chooseSlot: '选择时间',
    placesLeft: '剩余 {count} 个名额',
    fullWaitlist: '已满：加入候补',
    noSlots: '未来几天没有可预约的时间。',
    name: '您的姓名',
    contact: '电子邮件或电话号码',
    contactHint: '我们会把确认码发送到这里，其他人看不到。',
    book: '预约',
    codeTitle: '输入确认码',
    codeSent: '我们已向 {contact} 发送 6 位确认码。您的名额保留至 {until}。',
    waitlistHeld: '该时间已满：确认后加入候补名单。如有名额空出，我们会通知您。',
    code: '确认码',
    confirm: '确认',
    confirmedTitle: '已预约',
    confirmedText: '{resource}，{time}。届时见。',
    waitingTitle: '您已在候补名单中',
    waitingText: '{resource}，{time}。如有名额空出，我们会通知您。',
    calendar: '添加到日历 (.ics)',
    manage: '您的预约链接（取消或更改）',
    notFoundTitle: '此处无可预约项目',
    notFoundText: '此预约页面不存在或已关闭。',
    stateHeld: '已保留：等待您的确认码',
    stateConfirmed: '已预约',
    stateWaitlisted: '候补中',
    stateOffered: '为您提供了一个名额',
    stateCancelled: '已取消',
    stateAttended: '已到场',
    stateLapsed: '已过期',
    cancelBooking: '取消此预约',
    acceptOffer: '接受名额',
    offerUntil: '请在 {time} 前接受，否则名额将转给下一位候补者。',
    language: '语言',
  },
  'zh-Hant': {
    chooseSlot: '選擇時間',
    placesLeft: '剩餘 {count} 個名額',
    fullWaitlist: '已滿：加入候補',
    noSlots: '未來幾天沒有可預約的時間。',
    name: '您的姓名',
    contact: '電子郵件或電話號碼',
    contactHint: '我們會把確認碼傳送到這裡，其他人看不到。',
    book: '預約',
    codeTitle: '輸入確認碼',
    codeSent: '我們已向 {contact} 傳送 6 位確認碼。您的名額保留至 {until}。',
    waitlistHeld: '該時間已滿：確認後加入候補名單。如有名額空出，我們會通知您。',
    code: '確認碼',
    confirm: '確認',
    confirmedTitle: '已預約',
    confirmedText: '{resource}，{time}。屆時見。',
    waitingTitle: '您已在候補名單中',
    waitingText: '{resource}，{time}。如有名額空出，我們會通知您。',
    calendar: '加入行事曆 (.ics)',
    manage: '您的預約連結（取消或更改）',
    notFoundTitle: '此處無可預約項目',
    notFoundText: '此預約頁面不存在或已關閉。',
    stateHeld: '已保留：等待您的確認碼',
    stateConfirmed: '已預約',
    stateWaitlisted: '候補中',
    stateOffered: '為您提供了一個名額',
    stateCancelled: '已取消',
    stateAttended: '已到場',
    stateLapsed: '已過期',
    cancelBooking: '取消此預約',
    acceptOffer: '接受名額',
    offerUntil: '請在 {time} 前接受，否則名額將轉給下一位候補者。',
    language: '語言',
  },
};
