import type { ErrorMessages } from './en.ts';

export const zhHans: ErrorMessages = {
  BAD_REQUEST: '请求格式不正确。',
  INVALID_JSON: '请求正文不是有效的 JSON。',
  UNAUTHENTICATED: '请先登录：以“Authorization: Bearer <令牌>”发送有效且未过期的访问令牌。',
  INVALID_CREDENTIALS: '邮箱或密码不正确。',
  FORBIDDEN: '您的账户无权执行此操作。',
  INSUFFICIENT_SCOPE: '您的访问令牌缺少所需的权限范围：{scopes}。',
  ACCOUNT_DISABLED: '此账户已停用，请联系管理员启用。',
  ROUTE_NOT_FOUND: '不存在接口 {method} {path}。',
  USER_NOT_FOUND: '不存在使用该邮箱或编号的用户。',
  BUSINESS_NOT_FOUND: '不存在使用该代码或编号的企业。',
  EMAIL_TAKEN: '使用该邮箱的用户已存在。',
  BUSINESS_CODE_TAKEN: '使用该代码的企业已存在。',
  PAYLOAD_TOO_LARGE: '请求正文超过了 {limit} 字节的上限。',
  UNSUPPORTED_MEDIA_TYPE: '请求正文必须以 application/json 格式发送。',
  VALIDATION_FAILED: '部分字段无效：{fields}。',
  RATE_LIMITED: '尝试次数过多，请在 {seconds} 秒后重试。',
  INTERNAL_ERROR: '服务器内部出错。联系客服时请提供请求编号 {request_id}。',
  SERVICE_UNAVAILABLE: '服务暂时不可用，请稍后重试。',
};
