import type { Language } from '../../platform/i18n/index.ts';

// The approvals page's words, in the six languages of the service.

export type TextKey =
  | 'whatChanges'
  | 'proposal'
  | 'tool'
  | 'customer'
  | 'recipient'
  | 'yes'
  | 'no'
  | 'unknownOrder'
  | 'title'
  | 'signInHint'
  | 'pending'
  | 'none'
  | 'reason'
  | 'proposedBy'
  | 'proposedAt'
  | 'expiresAt'
  | 'preview'
  | 'previewRefused'
  | 'approve'
  | 'reject'
  | 'rejectReason'
  | 'approvedNotice'
  | 'rejectedNotice'
  | 'origin'
  | 'agentOrigin'
  | 'afterToolOutput'
  | 'personAsked';

export const TEXTS: Record<Language, Record<TextKey, string>> = {
  en: {
    whatChanges: 'What will change',
    proposal: 'Proposal #{id}',
    tool: 'Tool',
    customer: 'Customer',
    recipient: 'Recipient',
    yes: 'Yes',
    no: 'No',
    unknownOrder: 'not found in this business',
    title: 'Agent write approvals',
    signInHint: 'Sign in with your business account to review what agents propose to change.',
    pending: 'Waiting for a decision',
    none: 'Nothing waits for a decision.',
    reason: 'Reason',
    proposedBy: 'Proposed by',
    proposedAt: 'Proposed',
    expiresAt: 'Expires',
    preview: 'Preview: what it would do',
    previewRefused: 'Preview: it would be refused',
    approve: 'Approve and run',
    reject: 'Reject',
    rejectReason: 'Reason for rejecting',
    approvedNotice: 'Proposal #{id} approved: it ran.',
    rejectedNotice: 'Proposal #{id} rejected.',
    origin: 'Origin',
    agentOrigin: 'Proposed by the console agent in conversation {conversation}',
    afterToolOutput:
      'after reading tool output (data such as order notes, which may carry instructions): check it is what the person asked',
    personAsked: 'The person asked',
  },
  fr: {
    whatChanges: 'Ce qui va changer',
    proposal: 'Proposition n° {id}',
    tool: 'Outil',
    customer: 'Client',
    recipient: 'Destinataire',
    yes: 'Oui',
    no: 'Non',
    unknownOrder: 'introuvable dans cette entreprise',
    title: 'Approbation des écritures d’agents',
    signInHint:
      'Connectez-vous avec votre compte d’entreprise pour examiner ce que les agents proposent de modifier.',
    pending: 'En attente de décision',
    none: 'Rien n’attend de décision.',
    reason: 'Motif',
    proposedBy: 'Proposé par',
    proposedAt: 'Proposé le',
    expiresAt: 'Expire le',
    preview: 'Aperçu : ce que cela ferait',
    previewRefused: 'Aperçu : ce serait refusé',
    approve: 'Approuver et exécuter',
    reject: 'Rejeter',
    rejectReason: 'Motif du rejet',
    approvedNotice: 'Proposition n° {id} approuvée : elle a été exécutée.',
    rejectedNotice: 'Proposition n° {id} rejetée.',
    origin: 'Origine',
    agentOrigin: "Proposé par l'agent de la console dans la conversation {conversation}",
    afterToolOutput:
      "après avoir lu des résultats d'outils (des données comme les notes de commande, qui peuvent contenir des instructions) : vérifiez que c'est bien ce que la personne a demandé",
    personAsked: 'La personne a demandé',
  },
  de: {
    whatChanges: 'Was sich ändert',
    proposal: 'Vorschlag #{id}',
    tool: 'Werkzeug',
    customer: 'Kunde',
    recipient: 'Empfänger',
    yes: 'Ja',
    no: 'Nein',
    unknownOrder: 'in diesem Unternehmen nicht gefunden',
    title: 'Freigabe von Agenten-Änderungen',
    signInHint: 'Melden Sie sich mit Ihrem Unternehmenskonto an, um zu prüfen, was Agenten ändern möchten.',
    pending: 'Wartet auf Entscheidung',
    none: 'Nichts wartet auf eine Entscheidung.',
    reason: 'Begründung',
    proposedBy: 'Vorgeschlagen von',
    proposedAt: 'Vorgeschlagen am',
    expiresAt: 'Läuft ab am',
    preview: 'Vorschau: was es bewirken würde',
    previewRefused: 'Vorschau: es würde abgelehnt',
    approve: 'Genehmigen und ausführen',
    reject: 'Ablehnen',
    rejectReason: 'Grund der Ablehnung',
    approvedNotice: 'Vorschlag #{id} genehmigt: Er wurde ausgeführt.',
    rejectedNotice: 'Vorschlag #{id} abgelehnt.',
    origin: 'Herkunft',
    agentOrigin: 'Vom Konsolen-Agenten im Gespräch {conversation} vorgeschlagen',
    afterToolOutput:
      'nach dem Lesen von Tool-Ausgaben (Daten wie Auftragsnotizen, die Anweisungen enthalten können): prüfen Sie, ob es dem Wunsch der Person entspricht',
    personAsked: 'Die Person bat um',
  },
  es: {
    whatChanges: 'Qué cambiará',
    proposal: 'Propuesta n.º {id}',
    tool: 'Herramienta',
    customer: 'Cliente',
    recipient: 'Destinatario',
    yes: 'Sí',
    no: 'No',
    unknownOrder: 'no encontrado en esta empresa',
    title: 'Aprobación de escrituras de agentes',
    signInHint: 'Inicie sesión con su cuenta de empresa para revisar lo que los agentes proponen cambiar.',
    pending: 'Pendiente de decisión',
    none: 'Nada espera una decisión.',
    reason: 'Motivo',
    proposedBy: 'Propuesto por',
    proposedAt: 'Propuesto el',
    expiresAt: 'Caduca el',
    preview: 'Vista previa: lo que haría',
    previewRefused: 'Vista previa: sería rechazado',
    approve: 'Aprobar y ejecutar',
    reject: 'Rechazar',
    rejectReason: 'Motivo del rechazo',
    approvedNotice: 'Propuesta n.º {id} aprobada: se ejecutó.',
    rejectedNotice: 'Propuesta n.º {id} rechazada.',
    origin: 'Origen',
    agentOrigin: 'Propuesto por el agente de la consola en la conversación {conversation}',
    afterToolOutput:
      'tras leer resultados de herramientas (datos como notas de pedidos, que pueden contener instrucciones): compruebe que es lo que pidió la persona',
    personAsked: 'La persona pidió',
  },
  'zh-Hans': {
    whatChanges: '将要更改的内容',
    proposal: '提议 #{id}',
    tool: '工具',
    customer: '客户',
    recipient: '收件人',
    yes: '是',
    no: '否',
    unknownOrder: '在本企业中未找到',
    title: '代理写入审批',
    signInHint: '使用企业账号登录，审阅代理提议的更改。',
    pending: '等待决定',
    none: '没有等待决定的提议。',
    reason: '理由',
    proposedBy: '提议人',
    proposedAt: '提议时间',
    expiresAt: '过期时间',
    preview: '预览：将会执行的内容',
    previewRefused: '预览：将被拒绝',
    approve: '批准并执行',
    reject: '拒绝',
    rejectReason: '拒绝理由',
    approvedNotice: '提议 #{id} 已批准并已执行。',
    rejectedNotice: '提议 #{id} 已拒绝。',
    origin: '来源',
    agentOrigin: '由控制台智能体在对话 {conversation} 中提出',
    afterToolOutput: '在读取工具输出（例如订单备注等数据，其中可能包含指令）之后：请确认这正是对方所要求的',
    personAsked: '对方的请求',
  },
  'zh-Hant': {
    whatChanges: '將要變更的內容',
    proposal: '提議 #{id}',
    tool: '工具',
    customer: '客戶',
    recipient: '收件人',
    yes: '是',
    no: '否',
    unknownOrder: '在本企業中找不到',
    title: '代理寫入審批',
    signInHint: '使用企業帳號登入，審閱代理提議的變更。',
    pending: '等待決定',
    none: '沒有等待決定的提議。',
    reason: '理由',
    proposedBy: '提議人',
    proposedAt: '提議時間',
    expiresAt: '到期時間',
    preview: '預覽：將會執行的內容',
    previewRefused: '預覽：將被拒絕',
    approve: '核准並執行',
    reject: '拒絕',
    rejectReason: '拒絕理由',
    approvedNotice: '提議 #{id} 已核准並已執行。',
    rejectedNotice: '提議 #{id} 已拒絕。',
    origin: '來源',
    agentOrigin: '由控制台智能體在對話 {conversation} 中提出',
    afterToolOutput: '在讀取工具輸出（例如訂單備註等資料，其中可能包含指令）之後：請確認這正是對方所要求的',
    personAsked: '對方的請求',
  },
};
