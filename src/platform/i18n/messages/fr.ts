import type { ErrorMessages } from './en.ts';

export const fr: ErrorMessages = {
  BAD_REQUEST: 'La requête est mal formée.',
  INVALID_JSON: "Le corps de la requête n'est pas un JSON valide.",
  UNAUTHENTICATED:
    'Connectez-vous d’abord : envoyez un jeton d’accès valide et non expiré dans « Authorization: Bearer <jeton> ».',
  INVALID_CREDENTIALS: "L'adresse e-mail ou le mot de passe est incorrect.",
  FORBIDDEN: "Votre compte n'est pas autorisé à effectuer cette action.",
  INSUFFICIENT_SCOPE: "Votre jeton d'accès n'a pas la portée requise : {scopes}.",
  ACCOUNT_DISABLED: 'Ce compte est désactivé. Demandez à votre administrateur de le réactiver.',
  ENDPOINT_NOT_FOUND: "Le point d'accès {method} {path} n'existe pas.",
  USER_NOT_FOUND: 'Aucun utilisateur ne correspond à cette adresse e-mail ou à cet identifiant.',
  BUSINESS_NOT_FOUND: 'Aucune entreprise ne correspond à ce code ou à cet identifiant.',
  EMAIL_TAKEN: 'Un utilisateur avec cette adresse e-mail existe déjà.',
  BUSINESS_CODE_TAKEN: 'Une entreprise avec ce code existe déjà.',
  PAYLOAD_TOO_LARGE: 'Le corps de la requête dépasse la limite de {limit} octets.',
  UNSUPPORTED_MEDIA_TYPE: 'Le corps de la requête doit être envoyé en application/json.',
  VALIDATION_FAILED: 'Certains champs sont invalides : {fields}.',
  RATE_LIMITED: 'Trop de tentatives. Réessayez dans {seconds} secondes.',
  INTERNAL_ERROR:
    'Une erreur est survenue de notre côté. Indiquez l’identifiant de requête {request_id} si vous contactez le support.',
  ORDER_NOT_FOUND: "Aucune commande {order} n'existe dans cette entreprise.",
  ORDER_REF_TAKEN: 'La référence de commande {order_ref} est déjà utilisée dans cette entreprise.',
  ILLEGAL_STATUS_TRANSITION: 'Une commande au statut {from} ne peut pas passer à {to}.',
  CUSTOMER_NOT_FOUND: "Le client {customer_id} n'est pas un compte client de cette entreprise.",
  AMOUNT_TOO_PRECISE: 'Le montant {amount} a plus de décimales que {currency} ne le permet.',
  DRIVER_NOT_FOUND: "Aucun chauffeur {driver} n'existe dans cette entreprise.",
  DEPOT_NOT_FOUND: "Aucun dépôt {depot} n'existe dans cette entreprise.",
  ROUTE_NOT_FOUND: "Aucune tournée {route} n'existe dans cette entreprise.",
  SERVICE_UNAVAILABLE: 'Le service est momentanément indisponible. Réessayez dans un instant.',
};
