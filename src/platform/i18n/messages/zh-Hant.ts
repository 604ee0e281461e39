import type { ErrorMessages } from './en.ts';

export const zhHant: ErrorMessages = {
  BAD_REQUEST: '請求格式不正確。',
  INVALID_JSON: '請求內文不是有效的 JSON。',
  UNAUTHENTICATED: '請先登入：以「Authorization: Bearer <權杖>」傳送有效且未過期的存取權杖。',
  INVALID_CREDENTIALS: '電子郵件或密碼不正確。',
  FORBIDDEN: '您的帳戶無權執行此操作。',
  INSUFFICIENT_SCOPE: '您的存取權杖缺少所需的權限範圍：{scopes}。',
  ACCOUNT_DISABLED: '此帳戶已停用，請聯絡管理員啟用。',
  ROUTE_NOT_FOUND: '不存在端點 {method} {path}。',
  USER_NOT_FOUND: '不存在使用該電子郵件或編號的使用者。',
  BUSINESS_NOT_FOUND: '不存在使用該代碼或編號的企業。',
  EMAIL_TAKEN: '使用該電子郵件的使用者已存在。',
  BUSINESS_CODE_TAKEN: '使用該代碼的企業已存在。',
  PAYLOAD_TOO_LARGE: '請求內文超過了 {limit} 位元組的上限。',
  UNSUPPORTED_MEDIA_TYPE: '請求內文必須以 application/json 格式傳送。',
  VALIDATION_FAILED: '部分欄位無效：{fields}。',
  RATE_LIMITED: '嘗試次數過多，請於 {seconds} 秒後再試。',
  INTERNAL_ERROR: '伺服器內部發生錯誤。聯絡客服時請提供請求編號 {request_id}。',
  SERVICE_UNAVAILABLE: '服務暫時無法使用，請稍後再試。',
};
