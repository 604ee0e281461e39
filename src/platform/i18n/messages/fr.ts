import type { ErrorMessages } from './en.ts';

export const fr: ErrorMessages = {
  BAD_REQUEST: 'La requête est mal formée.',
  INVALID_JSON: "Le corps de la requête n'est pas un JSON valide.",
  INVALID_URL:
    "L'adresse est mal formée : un échappement % est invalide, ou une partie contient un caractère qu'un texte ne peut pas contenir.",
  PARAMETER_TOO_LONG: "Une partie de l'adresse dépasse {limit} caractères.",
  UNSUPPORTED_CHARACTERS:
    'Ces champs contiennent un caractère NUL ou une demi-paire de substitution UTF-16, interdits dans un texte : {fields}.',
  UNAUTHENTICATED:
    'Connectez-vous d’abord : envoyez un jeton d’accès valide et non expiré dans « Authorization: Bearer <jeton> ».',
  API_TOKEN_ARGUMENT_REMOVED:
    "L'argument d'outil api_token a pris fin après le {date} : envoyez le jeton dans l'en-tête Authorization: Bearer de la connexion.",
  INVALID_CREDENTIALS: "L'adresse e-mail ou le mot de passe est incorrect.",
  FORBIDDEN: "Votre compte n'est pas autorisé à effectuer cette action.",
  SCOPE_REQUIRED: "Les portées de cette connexion n'incluent pas ce qu'il faut : {scopes}.",
  INSUFFICIENT_SCOPE: "Votre jeton d'accès n'a pas la portée requise : {scopes}.",
  ACCOUNT_DISABLED: 'Ce compte est désactivé. Demandez à votre administrateur de le réactiver.',
  ENDPOINT_NOT_FOUND: "Le point d'accès {method} {path} n'existe pas.",
  USER_NOT_FOUND: 'Aucun utilisateur ne correspond à cette adresse e-mail ou à cet identifiant.',
  BUSINESS_NOT_FOUND: 'Aucune entreprise ne correspond à ce code ou à cet identifiant.',
  EMAIL_TAKEN: 'Un utilisateur avec cette adresse e-mail existe déjà.',
  BUSINESS_CODE_TAKEN: 'Une entreprise avec ce code existe déjà.',
  PAYLOAD_TOO_LARGE: 'Le corps de la requête dépasse la limite de {limit} octets.',
  HEADERS_TOO_LARGE:
    'Les en-têtes et l’URL de la requête dépassent ce que le serveur accepte ({limit} octets) ; envoyez-y moins, ou les données dans le corps.',
  REQUEST_TIMEOUT: 'La requête n’est pas arrivée en entier à temps.',
  UNSUPPORTED_MEDIA_TYPE: 'Le corps de la requête doit être envoyé en application/json.',
  UNSUPPORTED_DOCUMENT_TYPE:
    'Envoyez le PDF lui-même en application/pdf, ou son SHA-256 en application/json ({ "sha256": "<hex>" }).',
  UNSUPPORTED_PROOF_TYPE: 'Envoyez l’image elle-même en image/png, image/jpeg ou image/webp.',
  UNSUPPORTED_LABEL_TYPE: 'Envoyez l’étiquette elle-même en image/png, image/jpeg ou application/pdf.',
  PROOF_LINK_INVALID:
    'Ce lien vers une preuve de livraison est erroné ou a expiré ; rouvrez la page de suivi pour en obtenir un nouveau.',
  PROOF_NOT_AN_IMAGE: 'Le corps n’est pas une image {type} lisible de 1 à {max_pixels} pixels de côté.',
  LABEL_NOT_READABLE: 'Le corps n’est pas une étiquette {type} lisible.',
  LABEL_IMAGE_TOO_LARGE:
    'L’étiquette fait {width} × {height} pixels ; au plus {max_side} pixels de côté et {max_megapixels} mégapixels sont lus.',
  PROOF_NOT_FOUND: '{proof} n’est pas un fichier de preuve ({kind}) envoyé pour cette commande.',
  VALIDATION_FAILED: 'Certains champs sont invalides : {fields}.',
  RATE_LIMITED: 'Trop de tentatives. Réessayez dans {seconds} secondes.',
  TOO_MANY_STREAMS:
    'Trop de tableaux en direct sont ouverts pour cette entreprise ({limit} au plus) ; fermez-en un et réessayez.',
  INTERNAL_ERROR:
    'Une erreur est survenue de notre côté. Indiquez l’identifiant de requête {request_id} si vous contactez le support.',
  ORDER_NOT_FOUND: "Aucune commande {order} n'existe dans cette entreprise.",
  ORDER_REF_TAKEN: 'La référence de commande {order_ref} est déjà utilisée dans cette entreprise.',
  ILLEGAL_STATUS_TRANSITION: 'Une commande au statut {from} ne peut pas passer à {to}.',
  ORDER_LOCATION_LOCKED:
    "L'emplacement {leg} de la commande {order} ne peut pas changer tant qu'elle est au statut {status}.",
  ORDER_LEG_UNUSED: "La commande {order} n'a pas d'adresse {leg} à placer.",
  ADDRESS_NOT_PLACEABLE:
    "Ni les lieux de l'entreprise ni le géocodeur ne connaissent cette adresse : {address}. Envoyez lat et lng, ou corrigez l'adresse.",
  CUSTOMER_NOT_FOUND: "Le client {customer_id} n'est pas un compte client de cette entreprise.",
  AMOUNT_TOO_PRECISE: 'Le montant {amount} a plus de décimales que {currency} ne le permet.',
  DRIVER_NOT_FOUND: "Aucun chauffeur {driver} n'existe dans cette entreprise.",
  JOB_NOT_FOUND: "Aucune tâche avec cet identifiant parmi celles de l'appelant.",
  SKILL_NOT_FOUND: "Aucune compétence {code} dans le catalogue de compétences de l'entreprise.",
  SKILLS_NOT_IN_CATALOGUE:
    "Ces compétences ne sont pas dans le catalogue de l'entreprise : {skills}. Ajoutez-les d'abord (save_skill).",
  SKILL_IN_USE:
    "La compétence {code} est détenue par {drivers} chauffeurs et requise par {orders} commandes en cours : retirez-la-leur d'abord.",
  SKILL_CATALOGUE_FULL: "Le catalogue contient au plus {limit} compétences : supprimez-en une d'abord.",
  DRIVER_PROFILE_REQUIRED:
    "Le chauffeur {driver} n'a pas encore de profil de travail : définissez-le d'abord (set_driver_profile).",
  ROUTE_DRIVER_LACKS_SKILLS:
    "La commande {order} est sur la tournée {route}, dont le chauffeur n'a pas {skills} : retirez la commande de la tournée, ou donnez d'abord ces compétences au chauffeur.",
  ORDER_SKILLS_LOCKED:
    "La commande {order} est {status} : les compétences qu'elle requérait ne changent plus.",
  DEPOT_NOT_FOUND: "Aucun dépôt {depot} n'existe dans cette entreprise.",
  ROUTE_NOT_FOUND: "Aucune tournée {route} n'existe dans cette entreprise.",
  STOP_NOT_FOUND: "La commande {order} n'est pas un arrêt de la tournée {route}.",
  PACKAGE_NOT_ON_ROUTE: "Le colis {number} n'appartient à aucun enlèvement de la tournée {route}.",
  ROUTE_NOT_STARTED: "La tournée {route} n'a pas encore commencé : démarrez-la d'abord.",
  ROUTE_FINISHED: 'La tournée {route} est terminée : plus rien ne peut y être enregistré.',
  STOP_ALREADY_COMPLETED: "L'arrêt de la commande {order} sur la tournée {route} est déjà terminé.",
  STOP_IS_LOCKER_DROP:
    'L’arrêt de la commande {order} est un dépôt à la consigne {site} : le dépôt avec le code de dépôt le termine, et le retrait par le destinataire livre la commande.',
  CLIENT_ID_REUSED: 'Le client_id {client_id} a déjà servi à une autre écriture : donnez à chacune le sien.',
  OUTCOME_NOT_FOR_LEG: "Le résultat {outcome} ne s'applique pas à un arrêt {leg}.",
  DEVICE_TIME_BEFORE_ROUTE_START:
    'device_time {device_time} est antérieur au départ de la tournée ({started_at}) : l’horloge du téléphone est peut-être fausse.',
  DEVICE_TIME_OUT_OF_RANGE:
    'device_time {device_time} est en avance de plus de 5 minutes sur le serveur ou date de plus de 7 jours.',
  PLAN_VIOLATION:
    'Cette modification enfreint {count} règle(s) de planification que les tournées respectaient ; envoyez confirm_violations: true pour la faire quand même.',
  STOP_NOT_MOVABLE: "L'arrêt de la commande {order} est déjà {status} : il reste à sa place.",
  ROUTE_PAST_MIDNIGHT:
    'La tournée {route} finirait après minuit ({return_time}) : une tournée se planifie dans sa journée. Retirez-en des arrêts ou déplacez-les vers une autre tournée.',
  STOP_NOT_ON_ROUTE: "La commande {order} n'est pas un arrêt de la tournée {route}.",
  ORDER_NOT_PLANNABLE: "La commande {order} n'attend pas d'être planifiée le {date}.",
  VEHICLE_NOT_FOUND: "Aucun véhicule actif {vehicle} n'existe dans cette entreprise.",
  SUGGESTION_NOT_FOUND:
    'Aucune suggestion {suggestion} pour le {date} dans cette entreprise : la journée a changé depuis sa lecture. Relisez les suggestions.',
  SEQUENCE_INVALID:
    'Les arrêts indiqués ne conviennent pas à la tournée {route} : les positions vont de {first} à {last}, et chaque arrêt en attente est nommé une fois.',
  DRIVER_WITHOUT_DEPOT: "Le chauffeur {driver} n'a pas de profil de travail avec un dépôt.",
  DATE_IN_PAST:
    'Impossible de construire des tournées pour le {date} : nous sommes déjà le {today} dans cette entreprise.',
  CONTRACTOR_RULE_NOT_FOUND: "Aucune règle de sous-traitant {rule} n'existe dans cette entreprise.",
  CONTRACTOR_NOT_ENGAGED: 'La société sous-traitante {company} ne travaille pas pour cette entreprise.',
  BUSINESS_REQUIRED: 'Ce compte travaille pour plusieurs entreprises : indiquez-en une avec business_id.',
  MODULE_DISABLED:
    "Le module d'attribution de commandes aux sous-traitants n'est pas activé pour cette entreprise.",
  MODULE_UNAVAILABLE:
    "L'attribution de commandes aux sous-traitants n'est pas encore disponible sur ce système.",
  CONTRACTOR_NOT_FOUND: 'Aucun compte sous-traitant {broker} ne travaille pour cette entreprise.',
  ORDER_ON_ROUTE: "La commande {order} est sur une tournée ; retirez-la d'abord de la tournée.",
  ORDER_NOT_SELF_DELIVERY: "La commande {order} n'est pas une livraison assurée par l'entreprise.",
  ORDER_NOT_ASSIGNABLE:
    'La commande {order} est {status} ; seules les commandes nouvelles ou suspendues peuvent être attribuées.',
  ORDER_HELD_BY_CARRIER: 'La commande {order} est confiée au transporteur {carrier}.',
  ORDER_NOT_ASSIGNED: "La commande {order} n'a pas d'attribution active à un sous-traitant.",
  ORDER_ALREADY_ASSIGNED: 'La commande {order} est déjà attribuée à ce sous-traitant.',
  WEBHOOK_DELIVERY_NOT_FOUND: "Aucune livraison de webhook {delivery} n'existe dans cette entreprise.",
  WEBHOOK_SECRET_MISSING:
    "Enregistrez d'abord les paramètres des webhooks : il n'y a pas encore de secret de signature.",
  WEBHOOK_URL_REFUSED: 'Cette URL ne peut pas être appelée : {reason}',
  PRICE_HIDDEN_SETTLE_OFFLINE:
    "Les prix des commandes {family} se règlent hors ligne avec votre prestataire : le paiement en ligne n'est pas disponible.",
  NOTHING_TO_PAY: "La commande {order} n'a aucun prix à payer.",
  ORDER_ALREADY_PAID: 'La commande {order} est déjà payée.',
  DRY_RUN_UNAVAILABLE:
    "Un essai à blanc ne peut pas montrer ceci : il faudrait {effect}, ce qu'un essai à blanc ne fait pas. Envoyez la requête sans X-Dry-Run.",
  PAYMENT_DECLINED: "Le paiement a été refusé ; rien n'a été débité.",
  INSUFFICIENT_CREDIT: 'Crédit insuffisant en {currency} pour payer cette commande.',
  CARD_TOKEN_REQUIRED: 'Le paiement par carte nécessite un card_token du prestataire de paiement.',
  ID_TOKEN_INVALID: "Le jeton d'identité du fournisseur n'est pas valable pour cette application.",
  IDENTITY_NOT_REGISTERED:
    "Aucun compte n'est lié à cette identité, et cette application n'inscrit pas de nouveaux comptes.",
  APP_UNAVAILABLE: "L'application {app} n'est pas disponible pour le client {client} en ce moment.",
  APP_SIGN_IN_REFUSED: 'Ce compte ne peut pas se connecter à cette application pour ce client.',
  APP_NOT_FOUND: "Il n'existe pas d'application {app} pour le client {client}.",
  IDENTITY_PROVIDER_NOT_FOUND: "Aucun fournisseur d'identité {idp} n'est configuré.",
  IDENTITY_PROVIDER_UNREACHABLE: "Le fournisseur d'identité {issuer} est injoignable.",
  GEOCODER_UNAVAILABLE: 'Le géocodeur ne peut pas répondre pour le moment : {reason}. Réessayez plus tard.',
  TRACKING_NOT_FOUND: 'Le numéro de suivi {number} est inconnu.',
  TRACKING_PROVIDER_NOT_FOUND: "Aucun fournisseur de suivi actif {provider} n'existe dans cette entreprise.",
  UNKNOWN_FORMAT: 'Format {format} inconnu. Formats connus : {formats}.',
  PROVIDER_CREDENTIAL_REQUIRED:
    "Envoyez une clé de fournisseur de suivi valide dans l'en-tête X-OTEP-Provider-Key.",
  OTEP_INVALID: "Les événements de suivi ne sont pas conformes à OTEP ; rien n'a été enregistré.",
  OTEP_TOO_MANY_EVENTS: 'Au plus {max} événements par requête.',
  ORDER_NOT_ASSIGNED_TO_YOU: 'La commande {order} ne vous est pas attribuée.',
  SERVICE_UNAVAILABLE: 'Le service est momentanément indisponible. Réessayez dans un instant.',
  CARRIER_NOT_FOUND: "Aucun transporteur actif {carrier} n'existe dans cette entreprise.",
  CARRIER_SERVICE_NOT_FOUND: "Le transporteur {carrier} n'a pas de service {service}.",
  LABEL_NOT_FOUND:
    "Aucune étiquette d'expédition ne porte le numéro de suivi {number} dans cette entreprise.",
  RATE_CHANGED:
    "Le tarif {rate_id} ne s'applique plus : demandez un nouveau devis et utilisez le nouveau rate_id.",
  RATE_UNAVAILABLE:
    'Le transporteur {carrier} ne peut pas acheminer cet envoi avec le service {service} ({reason}).',
  NO_CARRIER_AVAILABLE: 'Aucun service de transport de cette entreprise ne peut acheminer cet envoi.',
  CARRIER_CURRENCY_MISMATCH:
    "Cette grille tarifaire est en {currency}, mais les autres transporteurs de l'entreprise facturent en {expected}.",
  ACCOUNT_PENDING_APPROVAL:
    "Ce compte attend l'approbation de l'entreprise. Vous pourrez vous connecter une fois qu'il sera approuvé.",
  REGISTRATION_NOT_FOUND: "Aucune inscription de chauffeur {id} n'existe dans cette entreprise.",
  ALREADY_EXISTS: 'Cela entre en conflit avec un élément qui existe déjà.',
  REFERENCE_CONFLICT:
    "Cela fait référence à un élément qui n'existe pas, ou un autre élément y fait encore référence.",
  CONCURRENT_UPDATE: "Quelqu'un d'autre a modifié les mêmes données au même moment. Réessayez.",
  INVALID_VALUE: 'Une valeur sort de la plage ou de la forme que le service peut enregistrer.',
  CONFIRMATION_REQUIRED:
    "{operation} est une action à haut risque : confirmez-la avec confirm=true (outils d'agent) ou l'en-tête X-Confirm: 1.",
  FEATURE_DISABLED: "{feature} n'est pas activé pour cette entreprise.",
  PROPOSAL_NOT_FOUND: "Aucune proposition d'écriture {id} dans cette entreprise.",
  PROPOSAL_DECIDED: "La proposition d'écriture {id} est déjà traitée ({status}).",
  SUGGESTION_WITHOUT_WRITE:
    'La suggestion {suggestion} ne nomme aucune écriture qui la règle : rien à proposer. Sa raison dit pourquoi.',
  PROPOSAL_EXPIRED: "La proposition d'écriture {id} a expiré avant toute décision.",
  OWN_PROPOSAL:
    "Le jeton qui a proposé cette écriture ne peut pas l'approuver : une personne (ou un autre jeton) le doit.",
  TOOL_NOT_PROPOSABLE:
    "{tool} ne peut pas être proposé : seuls les outils d'écriture du serveur d'agents le peuvent, sauf ceux de la file d'approbation (décider revient à une personne).",
  POI_NOT_FOUND: "Aucun point d'intérêt {id} dans cette entreprise.",
  ALLIANCE_NOT_FOUND: 'Aucune alliance {id} dont cette entreprise est membre ou à laquelle elle est invitée.',
  ALLIANCE_MEMBER_NOT_FOUND: "{code} n'est ni membre de cette alliance ni invitée.",
  ALLIANCE_OWNER_ONLY: "Seule l'entreprise propriétaire de l'alliance peut faire cela.",
  CLIENT_NOT_ACCESSIBLE: 'Cette entreprise ne partage pas ces données avec la vôtre.',
  ALLIANCE_ALREADY_MEMBER: "Cette entreprise est déjà membre de l'alliance.",
  ALLIANCE_ALREADY_INVITED: "Cette entreprise est déjà invitée dans l'alliance.",
  ALLIANCE_NOT_INVITED:
    "Il n'y a pas d'invitation à refuser : cette entreprise est déjà membre (quittez plutôt l'alliance).",
  ALLIANCE_INVITATION_PENDING:
    "Cette entreprise est seulement invitée : acceptez d'abord l'invitation (ou refusez-la).",
  ALLIANCE_OWNER_CANNOT_LEAVE:
    "Le propriétaire ne peut ni partir ni être retiré tant que d'autres entreprises sont dans l'alliance : retirez-les ou dissolvez-la.",
  ADDRESS_NOT_FOUND: 'Aucune adresse enregistrée {id} dans ce carnet.',
  CSV_UNREADABLE: 'Le fichier CSV est illisible : {reason}',
  CSV_TOO_LONG: 'Le fichier CSV a plus de {limit} lignes ; découpez-le.',
  DATASET_GROUP_NOT_FOUND: 'Aucun groupe de jeux de données {id} dans cette entreprise.',
  DATASET_NOT_FOUND: 'Aucun jeu de données {id} dans cette entreprise.',
  DATASET_RECORD_NOT_FOUND: 'Aucun enregistrement {id} dans ce jeu de données.',
  DATASET_GROUP_NOT_EMPTY:
    'Le groupe {id} contient encore {count} jeux de données : déplacez-les d’abord, ou supprimez-le avec ungroup_datasets.',
  DATASET_SCHEMA_CONFLICT:
    'Les nouveaux champs rendraient invalides {count} enregistrements existants ; details les nomme. Modifiez-les d’abord.',
  DATASET_FULL: 'Le jeu de données {id} dépasserait {limit} enregistrements.',
  RETURN_REASON_NOT_FOUND: "{code} ne fait pas partie des motifs de retour de l'entreprise.",
  SAVED_ADDRESS_NOT_FOUND:
    "Aucune adresse enregistrée {id} dans les carnets d'adresses que cette commande peut utiliser.",
  RETURN_REASON_REQUIRED: "Un retour indique l'un des motifs de retour de l'entreprise : {codes}.",
  RETURN_PHOTO_REQUIRED:
    'Le motif de retour {code} exige une photo : ajoutez-la dans proof_of_delivery.photo_urls.',
  REGISTRATION_ALREADY_DECIDED: "L'inscription de chauffeur {id} est déjà traitée ({status}).",
  QUERY_TOO_COMPLEX:
    "La requête en demande trop : {measure} = {found}, au-delà de la limite de {limit}. Demandez moins en une requête (moins d'alias, des pages plus petites, moins d'imbrication).",
  WAREHOUSE_NOT_FOUND: 'Aucun entrepôt {id} dans cette entreprise.',
  WAREHOUSE_LOCATION_NOT_FOUND: 'Aucun emplacement {id} dans cet entrepôt.',
  TRANSFER_NOT_FOUND: "Aucun transfert d'entrepôt {id} dans cette entreprise.",
  WAREHOUSE_ROLE_REQUIRED:
    "Vous n'avez pas de rôle dans l'entrepôt {code} : un administrateur client l'accorde.",
  PACKAGE_IN_OTHER_WAREHOUSE:
    'Le colis {number} est détenu par un autre entrepôt : transférez-le au lieu de le réceptionner ici.',
  PACKAGE_NOT_IN_WAREHOUSE: "Le colis {number} n'est pas dans cet entrepôt : réceptionnez-le d'abord.",
  LOCATION_FULL: "L'emplacement {code} est plein : il contient autant de colis que sa capacité le permet.",
  CAPACITY_BELOW_OCCUPIED:
    "L'emplacement {code} contient {occupied} colis : sa capacité ne peut pas descendre en dessous.",
  LOCATION_IN_USE:
    "L'emplacement {code} est la zone de préparation d'une tournée d'aujourd'hui ou à venir : il le reste jusque-là.",
  STOCK_NOT_ENOUGH: 'Pas assez de {sku} à cet endroit pour le déplacer.',
  SCAN_ID_REUSED:
    'Le scan {scan} a déjà servi à un autre mouvement dans cet entrepôt : donnez à chaque scan son propre identifiant.',
  NO_STAGING_LANE:
    'Chaque couloir de préparation de cet entrepôt sert déjà une tournée le {date} : ajoutez-en un.',
  ROUTE_ALREADY_DISPATCHED: 'La tournée {route} est déjà partie : plus rien ne peut être chargé.',
  TRANSFER_REFUSED: "Le transfert n'a rien déplacé : {count} colis ne peuvent pas être déplacés.",
  TRANSFER_NOT_REVERSIBLE:
    "Le transfert {id} ne peut pas être annulé : il l'a déjà été, ou certains de ses colis ont bougé depuis.",
  LABEL_IMAGES_NOT_KEPT:
    'Cette entreprise ne conserve pas les images d’étiquettes : envoyez la commande sans l’image, ou réglez d’abord keep_label_images_days.',
  SMS_MARKETING_DISABLED: "Le marketing par SMS n'est pas activé pour cette entreprise.",
  SMS_SUBSCRIBER_NOT_FOUND: "Aucun abonné SMS avec cet identifiant dans l'entreprise.",
  SMS_LINK_INVALID: "Ce lien de confirmation n'est pas valide.",
  SMS_WEBHOOK_UNVERIFIED:
    "Cet appel du fournisseur SMS n'est pas signé avec le secret du fournisseur de l'entreprise.",
  SMS_SEGMENT_NOT_FOUND: 'Aucun segment SMS {id} ici.',
  SMS_CAMPAIGN_NOT_FOUND: 'Aucune campagne SMS {id} ici.',
  SMS_SEGMENT_IN_USE: "Le segment {id} est utilisé par la campagne {campaign}, qui n'est pas terminée.",
  SMS_CAMPAIGN_WRONG_STATE:
    "La campagne {id} est à l'état {status} : impossible de faire {action} maintenant.",
  ORDER_CHAT_CLOSED: 'La discussion de la commande {order} est fermée : rouvrez-la pour écrire.',
  CUSTOMER_CHAT_OFF: "La discussion avec le client n'est pas autorisée pour la commande {order}.",
  MAP_NOT_FOUND: 'Aucune carte {id} dans cette entreprise.',
  MAP_LINK_NOT_FOUND: 'Aucune carte publiée n’a ce lien : il a peut-être été révoqué.',
  MAP_LAYER_NOT_FOUND: 'La carte {map} n’a pas de couche {layer}.',
  MAPS_FULL: 'Une entreprise garde au plus {limit} cartes : supprimez-en une d’abord.',
  FLEET_NOT_FOUND: 'Aucune flotte {fleet} dans cette entreprise.',
  FLEET_NAME_TAKEN: 'L’entreprise a déjà une flotte nommée « {name} ».',
  FLEETS_FULL: 'Une entreprise garde au plus {limit} flottes : supprimez-en une d’abord.',
  FLEET_CAPTAIN_REQUIRED: 'Seuls le personnel et les capitaines de la flotte {fleet} peuvent faire cela.',
  SHIFT_PATTERN_NOT_FOUND: 'Aucun modèle de créneaux {pattern} dans cette flotte.',
  SHIFT_PATTERNS_FULL: 'Une flotte garde au plus {limit} modèles de créneaux : supprimez-en un d’abord.',
  SHIFT_NOT_FOUND: 'Aucun créneau {shift} dans cette flotte.',
  SHIFT_IN_PAST: 'Un créneau le {date} à {start} aurait déjà commencé dans cette entreprise.',
  SHIFT_FULL: 'Le créneau {shift} n’a plus de place : ses {slots} places sont prises.',
  SHIFT_STARTED: 'Le créneau {shift} a commencé le {date} à {start} : il ne peut plus changer ainsi.',
  SHIFT_CANCELLED: 'Le créneau {shift} est annulé.',
  SHIFT_SLOTS_TAKEN:
    'Le créneau {shift} compte {signups} chauffeurs inscrits : il ne peut pas avoir moins de places.',
  SIGNUP_NOT_FOUND: 'Le chauffeur {driver} n’est pas inscrit au créneau {shift}.',
  SIGNUP_STATE_INVALID: 'Une inscription ne peut pas passer de {from} à {to}.',
  ROUTE_ALREADY_CLAIMED:
    "La tournée {route} a été prise d'abord par un autre chauffeur. Vous pouvez rejoindre sa file d'attente.",
  ROUTE_NOT_ON_BOARD: "La tournée {route} n'est sur aucun tableau de tournées que vous pouvez voir.",
  ROUTE_NOT_PUBLISHABLE:
    'La tournée {route} ne peut pas aller sur un tableau : seule une tournée planifiée, avec un chauffeur et tous ses arrêts en attente, le peut (details.reason dit ce qui l’empêche).',
  ROUTE_ON_BOARD:
    "La tournée {route} est ouverte sur un tableau de tournées et n'a pas de chauffeur : retirez-la du tableau avant de la modifier.",
  BOARD_ROUTE_OPEN: 'La tournée {route} est ouverte sur le tableau : personne ne la tient, prenez-la plutôt.',
  BOARD_ROUTE_HELD: 'Vous tenez déjà la tournée {route}.',
  BOARD_WINDOW_OVERLAP:
    'La tournée {route} ({window}) chevauche la tournée {other} ({other_window}) que le chauffeur tient déjà ce jour-là.',
  BOARD_OUTSIDE_SHIFT: 'La tournée {route} ({window}) sort du créneau du chauffeur ce jour-là ({shifts}).',
  BOARD_WINDOW_PASSED:
    "La tournée {route} devait partir à {departure} : elle ne peut plus être prise ni attendue en file ; un capitaine ou un répartiteur peut encore l'attribuer.",
  BOARD_OFF_SHIFT:
    "Le chauffeur n'a aucun créneau le {date} dans le planning de la flotte : la tournée {route} ne peut être prise qu'un jour de créneau ; un capitaine ou un répartiteur peut encore l'attribuer.",
  WITHDRAWAL_CUTOFF_PASSED:
    "Le retrait de la tournée {route} était possible jusqu'à {cutoff} : demandez à un capitaine ou à un répartiteur.",
  SERVICE_ZONE_NOT_FOUND: 'Aucune zone de service {id} dans cette entreprise.',
  SERVICE_ZONES_FULL: 'Une entreprise garde au plus {limit} zones de service : supprimez-en une d’abord.',
  RIDER_NOT_GRANTED:
    "Ce chauffeur n'est pas coursier instantané : l'entreprise doit d'abord lui accorder la livraison instantanée.",
  OFFER_NOT_FOUND: 'Aucune offre {offer} ne vous a été faite.',
  OFFER_ALREADY_TAKEN: 'La commande {order} a déjà été prise par un autre coursier.',
  OFFER_EXPIRED: "L'offre {offer} n'est plus ouverte : elle a expiré, a été refusée ou a été retirée.",
  RIDER_BUSY:
    "Vous êtes encore sur la commande instantanée {order} : terminez-la avant d'en prendre une autre.",
  RIDER_ON_ROUTE:
    'Vous êtes en cours de tournée {route} : terminez-la avant de prendre une commande instantanée.',
  AGENT_CONVERSATION_NOT_FOUND: "Vous n'avez pas de conversation {id} avec l'agent.",
  AGENT_PROVIDER_NOT_CONFIGURED:
    "Aucun fournisseur de modèle n'est configuré pour l'agent d'exploitation : définissez AGENT_PROVIDER (openai ou anthropic), AGENT_API_KEY, et AGENT_MODEL ou AGENT_BASE_URL si besoin.",
  AGENT_PROVIDER_FAILED:
    "Le fournisseur de modèle a répondu par une erreur ; rien n'a été conservé. Réessayez plus tard.",
  AGENT_PROVIDER_TIMEOUT:
    "Le fournisseur de modèle n'a pas répondu à temps ; rien n'a été conservé. Réessayez plus tard.",
  DAILY_CAP_REACHED:
    "Votre entreprise a utilisé ses {cap} tours d'agent pour aujourd'hui. De nouveaux tours seront disponibles après minuit, heure locale.",
  PACKAGING_NOT_FOUND: 'Aucun emballage {id} dans le catalogue de cette entreprise.',
  PACKING_PLAN_NOT_FOUND: 'Aucun plan de colisage {id} dans cette entreprise.',
  LOADING_SPACE_NOT_FOUND:
    "Aucun espace de chargement {space} : nommez un espace standard par son code ou un espace de l'entreprise par son identifiant.",
  LOAD_PLAN_NOT_FOUND: 'Aucun plan de chargement {id} dans cette entreprise.',
  LOAD_PLAN_ROUTE_GONE:
    'Le plan de chargement {id} a été fait pour la tournée {route}, dissoute par une reconstruction de sa journée : planifiez le chargement de la tournée où sont maintenant ses commandes.',
  PACKING_PLAN_INCOMPLETE:
    "{count} pièces de ce plan n'entrent dans aucun carton : un plan ne devient les colis d'une commande que si chaque pièce est emballée.",
  ORDER_PACKAGES_LOCKED:
    "La commande {order} est {status} : ses colis ne peuvent être remplacés qu'avant l'enlèvement.",
  ORDER_TOO_MANY_PACKAGES: 'Une commande compte au plus {max} colis ; ce plan en a {count}.',
  SOLVER_BUSY: "Les planificateurs sont occupés par d'autres plans. Réessayez dans {seconds} secondes.",
  LABEL_READER_BUSY: 'Les lecteurs d’étiquettes sont occupés. Réessayez dans {seconds} secondes.',
  PACKAGING_CATALOG_FULL:
    "Un catalogue d'emballages compte au plus {limit} types de cartons : supprimez-en ou réutilisez-en un d'abord.",
  LOADING_SPACES_FULL:
    "Une entreprise garde au plus {limit} espaces de chargement propres : supprimez-en un d'abord.",
  LOCKER_SITE_NOT_FOUND: 'Aucun site de consignes {id} que vous puissiez utiliser.',
  LOCKER_DEVICE_NOT_FOUND: 'Aucun appareil de consigne {id} sur vos sites.',
  LOCKER_COMPARTMENT_NOT_FOUND: 'Aucun casier {id} sur vos sites.',
  LOCKER_BOOKING_NOT_FOUND: 'Aucune réservation de consigne {id}.',
  LOCKER_NO_COMPARTMENT_FREE: 'Aucun casier libre à {site} ne peut recevoir ce colis pour le moment.',
  LOCKER_QUOTA_EXHAUSTED: 'Votre entreprise dispose de {quota} casiers {size} à {site}, tous occupés.',
  LOCKER_CODE_WRONG: 'Ce code n’ouvre pas le casier. Encore {left} essais.',
  LOCKER_CODE_LOCKED:
    'Trop de codes erronés : cette réservation est verrouillée. Demandez un nouveau code à l’expéditeur.',
  LOCKER_CODE_EXPIRED: 'Ce code a expiré : le colis n’a pas été retiré à temps.',
  LOCKER_BOOKING_CLOSED: 'Cette réservation de consigne est {state} : impossible pour le moment.',
  LOCKER_NOT_YOUR_HANDOVER:
    'Cette remise se fait entre deux personnes nommées, et ce n’est pas à vous de l’ouvrir maintenant.',
  LOCKER_COMPARTMENT_BUSY: 'Le casier est déjà en cours d’ouverture. Patientez un instant.',
  LOCKER_DEVICE_OFFLINE: 'La consigne {device} est hors ligne : elle ne peut pas s’ouvrir maintenant.',
  LOCKER_COMPARTMENT_IN_USE: 'Le casier {number} est réservé : il ne peut être mis hors service que libre.',
  LOCKER_NUMBERS_TAKEN: 'Les numéros de casier doivent être uniques par appareil : {numbers}.',
  LOCKER_SITE_FULL: 'Un site de consignes compte au plus {limit} appareils.',
  LOCKER_ORDER_ON_BOARD:
    'La commande {order} est {status} sur sa tournée : elle ne peut donc pas revenir dans le pool de planification (seule une commande PLANNED le peut). Livrez-la plutôt à la consigne sur sa tournée (réglage de dispatch locker_reservation : drop_at_locker).',
  LOCKER_SITE_NOT_PLACED:
    'Le site de consignes {site} n’a pas de coordonnées : la tournée de la commande {order} ne peut pas y être planifiée, rien n’a été réservé.',
  LUGGAGE_TAG_TAKEN: 'L’étiquette de bagage {tag} est déjà sur un relais de cette entreprise.',
  RESERVATION_RESOURCE_NOT_FOUND: 'Aucune ressource réservable {id} ici.',
  RESERVATION_SLOT_NOT_OFFERED: "{starts_at} n'est pas un créneau de cette ressource encore réservable.",
  RESERVATION_SLOT_FULL: 'Ce créneau est complet.',
  RESERVATION_NOT_FOUND: 'Aucune réservation de ce type.',
  RESERVATION_CODE_WRONG: "Ce code de confirmation n'est pas celui que nous avons envoyé.",
  RESERVATION_CODE_EXPIRED: 'Le code de confirmation a expiré : réservez à nouveau.',
  RESERVATION_LINK_INVALID: "Ce lien de réservation n'est pas valide.",
  RESERVATION_CLOSED: 'Cette réservation est {state} : impossible pour le moment.',
  RESERVATION_OFFER_EXPIRED:
    "La place proposée n'a pas été acceptée à temps et est passée à la personne suivante.",
  LOCKER_QUOTA_NOT_FOUND: 'Aucun quota de consignes {id} proposé par votre entreprise.',
  LUGGAGE_RELAY_NOT_FOUND: 'Aucun relais de bagages {relay} dans cette entreprise.',
  TRACKING_PUSH_UNVERIFIED:
    'Cette notification de suivi n’est pas signée avec le secret de webhook de l’entreprise.',
  TRACKING_PUSH_REPLAYED:
    'Cette notification de suivi a déjà été reçue, ou elle est trop ancienne : elle est refusée.',
  SUITE_NOT_FOUND: 'Aucune adresse de réexpédition {suite} dans cette entreprise.',
  SUITE_EXISTS: 'Ce client a déjà l’adresse de réexpédition {suite}.',
  INBOUND_PARCEL_NOT_FOUND: 'Aucun colis entrant {parcel} ici.',
  INBOUND_PARCEL_EXISTS: 'Le colis {carrier} {number} est déjà annoncé.',
  INBOUND_PARCEL_STATE: 'Le colis {parcel} est {state} : ce n’est pas possible pour le moment.',
  CONSOLIDATION_NOT_FOUND: 'Aucun regroupement {id} ici.',
  CONSOLIDATION_SHIPPED: 'Le regroupement {id} est déjà expédié.',
  THIRD_PARTY_CONNECTION_NOT_FOUND: 'Aucune connexion de livraison tierce {id} dans cette entreprise.',
  THIRD_PARTY_ORDER_NOT_FOUND: 'Aucune commande de fournisseur {id} dans cette entreprise.',
  THIRD_PARTY_ORDER_DECIDED: 'La commande de fournisseur {id} est déjà {state}.',
  THIRD_PARTY_DEADLINE_PASSED:
    'La commande de fournisseur {id} devait être acceptée ou refusée avant {accept_by} : trop tard.',
  THIRD_PARTY_PUSH_REFUSED: "Cet envoi ne porte pas le jeton d'envoi d'une connexion active.",
  THIRD_PARTY_URL_REFUSED: 'Cette URL de fournisseur ne peut pas être appelée : {reason}',
  THIRD_PARTY_ADAPTER_UNKNOWN: 'Aucun adaptateur de fournisseur nommé {adapter}.',
  THIRD_PARTY_PROVIDER_FAILED: "Le fournisseur {provider} ne l'a pas pris en compte : {reason}",
  SMS_OFFER_CODE_NOT_FOUND: 'Aucun code promotionnel de ce type dans cette entreprise.',
  SMS_OFFER_CODE_EXPIRED: 'Ce code promotionnel a expiré le {expires_at}.',
  SMS_OFFER_CODE_REDEEMED: 'Ce code promotionnel a déjà été utilisé le {redeemed_at}.',
};
