import type { Language } from '../../platform/i18n/index.ts';

// The operations agent panel's words, in the six languages of the service; its script gets them
// all in a JSON block of the page.

export type AgentPanelTextKey =
  | 'heading'
  | 'hint'
  | 'ask'
  | 'send'
  | 'you'
  | 'agent'
  | 'thinking'
  | 'toolCalls'
  | 'proposal'
  | 'pending'
  | 'approved'
  | 'rejected'
  | 'expired'
  | 'approve'
  | 'reject'
  | 'failedToRun';

export const AGENT_PANEL_TEXTS: Record<Language, Record<AgentPanelTextKey, string>> = {
  en: {
    heading: 'Operations agent',
    hint: 'Ask about the day. The agent reads with your rights and only proposes changes: a person approves them.',
    ask: 'Your question or request',
    send: 'Send',
    you: 'You',
    agent: 'Agent',
    thinking: 'The agent is working…',
    toolCalls: 'Tools it used: {count}',
    proposal: 'Proposed change: {title}',
    pending: 'Waiting for approval',
    approved: 'Approved and done',
    rejected: 'Rejected',
    expired: 'Expired',
    approve: 'Approve',
    reject: 'Reject',
    failedToRun: 'Approved, but the change was refused when it ran',
  },
  fr: {
    heading: 'Agent d’exploitation',
    hint: 'Posez vos questions sur la journée. L’agent lit avec vos droits et ne fait que proposer des changements : une personne les approuve.',
    ask: 'Votre question ou demande',
    send: 'Envoyer',
    you: 'Vous',
    agent: 'Agent',
    thinking: 'L’agent travaille…',
    toolCalls: 'Outils utilisés : {count}',
    proposal: 'Changement proposé : {title}',
    pending: 'En attente d’approbation',
    approved: 'Approuvé et fait',
    rejected: 'Refusé',
    expired: 'Expiré',
    approve: 'Approuver',
    reject: 'Refuser',
    failedToRun: 'Approuvé, mais le changement a été refusé à son exécution',
  },
  de: {
    heading: 'Betriebsagent',
    hint: 'Fragen Sie zum Tag. Der Agent liest mit Ihren Rechten und schlägt Änderungen nur vor: Ein Mensch genehmigt sie.',
    ask: 'Ihre Frage oder Bitte',
    send: 'Senden',
    you: 'Sie',
    agent: 'Agent',
    thinking: 'Der Agent arbeitet …',
    toolCalls: 'Verwendete Werkzeuge: {count}',
    proposal: 'Vorgeschlagene Änderung: {title}',
    pending: 'Wartet auf Genehmigung',
    approved: 'Genehmigt und ausgeführt',
    rejected: 'Abgelehnt',
    expired: 'Abgelaufen',
    approve: 'Genehmigen',
    reject: 'Ablehnen',
    failedToRun: 'Genehmigt, aber die Änderung wurde bei der Ausführung abgelehnt',
  },
  es: {
    heading: 'Agente de operaciones',
    hint: 'Pregunte sobre el día. El agente lee con sus permisos y solo propone cambios: una persona los aprueba.',
    ask: 'Su pregunta o petición',
    send: 'Enviar',
    you: 'Usted',
    agent: 'Agente',
    thinking: 'El agente está trabajando…',
    toolCalls: 'Herramientas usadas: {count}',
    proposal: 'Cambio propuesto: {title}',
    pending: 'Pendiente de aprobación',
    approved: 'Aprobado y hecho',
    rejected: 'Rechazado',
    expired: 'Caducado',
    approve: 'Aprobar',
    reject: 'Rechazar',
    failedToRun: 'Aprobado, pero el cambio fue rechazado al ejecutarse',
  },
  'zh-Hans': {
    heading: '运营助手',
    hint: '询问当天的情况。助手以您的权限读取数据，只提出更改建议：由人批准。',
    ask: '您的问题或请求',
    send: '发送',
    you: '您',
    agent: '助手',
    thinking: '助手正在处理…',
    toolCalls: '使用的工具：{count}',
    proposal: '建议的更改：{title}',
    pending: '等待批准',
    approved: '已批准并完成',
    rejected: '已拒绝',
    expired: '已过期',
    approve: '批准',
    reject: '拒绝',
    failedToRun: '已批准，但执行时更改被拒绝',
  },
  'zh-Hant': {
    heading: '營運助手',
    hint: '詢問當天的情況。助手以您的權限讀取資料，只提出變更建議：由人批准。',
    ask: '您的問題或請求',
    send: '傳送',
    you: '您',
    agent: '助手',
    thinking: '助手正在處理…',
    toolCalls: '使用的工具：{count}',
    proposal: '建議的變更：{title}',
    pending: '等待批准',
    approved: '已批准並完成',
    rejected: '已拒絕',
    expired: '已過期',
    approve: '批准',
    reject: '拒絕',
    failedToRun: '已批准，但執行時變更被拒絕',
  },
};
