import type { ErrorMessages } from './en.ts';

export const es: ErrorMessages = {
  BAD_REQUEST: 'La solicitud no está bien formada.',
  INVALID_JSON: 'El cuerpo de la solicitud no es un JSON válido.',
  UNAUTHENTICATED:
    'Inicie sesión primero: envíe un token de acceso válido y vigente como «Authorization: Bearer <token>».',
  INVALID_CREDENTIALS: 'El correo electrónico o la contraseña son incorrectos.',
  FORBIDDEN: 'Su cuenta no tiene permiso para hacer esto.',
  INSUFFICIENT_SCOPE: 'Su token de acceso no tiene el alcance necesario: {scopes}.',
  ACCOUNT_DISABLED: 'Esta cuenta está desactivada. Pida a su administrador que la active.',
  ENDPOINT_NOT_FOUND: 'No existe el endpoint {method} {path}.',
  USER_NOT_FOUND: 'No existe ningún usuario con ese correo electrónico o identificador.',
  BUSINESS_NOT_FOUND: 'No existe ninguna empresa con ese código o identificador.',
  EMAIL_TAKEN: 'Ya existe un usuario con este correo electrónico.',
  BUSINESS_CODE_TAKEN: 'Ya existe una empresa con este código.',
  PAYLOAD_TOO_LARGE: 'El cuerpo de la solicitud supera el límite de {limit} bytes.',
  UNSUPPORTED_MEDIA_TYPE: 'El cuerpo de la solicitud debe enviarse como application/json.',
  VALIDATION_FAILED: 'Algunos campos no son válidos: {fields}.',
  RATE_LIMITED: 'Demasiados intentos. Vuelva a intentarlo dentro de {seconds} segundos.',
  INTERNAL_ERROR:
    'Algo falló de nuestro lado. Indique el identificador de solicitud {request_id} si contacta con soporte.',
  ORDER_NOT_FOUND: 'No existe el pedido {order} en esta empresa.',
  ORDER_REF_TAKEN: 'La referencia de pedido {order_ref} ya se usa en esta empresa.',
  ILLEGAL_STATUS_TRANSITION: 'Un pedido en estado {from} no puede pasar a {to}.',
  CUSTOMER_NOT_FOUND: 'El cliente {customer_id} no es una cuenta de cliente de esta empresa.',
  AMOUNT_TOO_PRECISE: 'El importe {amount} tiene más decimales de los que permite {currency}.',
  DRIVER_NOT_FOUND: 'No existe el conductor {driver} en esta empresa.',
  DEPOT_NOT_FOUND: 'No existe el depósito {depot} en esta empresa.',
  ROUTE_NOT_FOUND: 'No existe la ruta {route} en esta empresa.',
  SERVICE_UNAVAILABLE: 'El servicio no está disponible temporalmente. Vuelva a intentarlo en breve.',
};
