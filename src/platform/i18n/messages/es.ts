import type { ErrorMessages } from './en.ts';

export const es: ErrorMessages = {
  BAD_REQUEST: 'La solicitud no está bien formada.',
  INVALID_JSON: 'El cuerpo de la solicitud no es un JSON válido.',
  INVALID_URL:
    'La dirección no está bien formada: un escape % es inválido, o una parte contiene un carácter que un texto no puede contener.',
  PARAMETER_TOO_LONG: 'Una parte de la dirección supera los {limit} caracteres.',
  UNSUPPORTED_CHARACTERS:
    'Estos campos contienen un carácter NUL o un sustituto UTF-16 sin pareja, que un texto no puede contener: {fields}.',
  UNAUTHENTICATED:
    'Inicie sesión primero: envíe un token de acceso válido y vigente como «Authorization: Bearer <token>».',
  API_TOKEN_ARGUMENT_REMOVED:
    'El argumento de herramienta api_token terminó después del {date}: envíe el token en la cabecera Authorization: Bearer de la conexión.',
  INVALID_CREDENTIALS: 'El correo electrónico o la contraseña son incorrectos.',
  FORBIDDEN: 'Su cuenta no tiene permiso para hacer esto.',
  SCOPE_REQUIRED: 'Los alcances de esta conexión no incluyen lo necesario: {scopes}.',
  INSUFFICIENT_SCOPE: 'Su token de acceso no tiene el alcance necesario: {scopes}.',
  ACCOUNT_DISABLED: 'Esta cuenta está desactivada. Pida a su administrador que la active.',
  ENDPOINT_NOT_FOUND: 'No existe el endpoint {method} {path}.',
  USER_NOT_FOUND: 'No existe ningún usuario con ese correo electrónico o identificador.',
  BUSINESS_NOT_FOUND: 'No existe ninguna empresa con ese código o identificador.',
  EMAIL_TAKEN: 'Ya existe un usuario con este correo electrónico.',
  BUSINESS_CODE_TAKEN: 'Ya existe una empresa con este código.',
  PAYLOAD_TOO_LARGE: 'El cuerpo de la solicitud supera el límite de {limit} bytes.',
  HEADERS_TOO_LARGE:
    'Las cabeceras y la URL de la solicitud superan lo que el servidor admite ({limit} bytes); envíe menos en ellas o los datos en el cuerpo.',
  REQUEST_TIMEOUT: 'La solicitud no llegó completa a tiempo.',
  UNSUPPORTED_MEDIA_TYPE: 'El cuerpo de la solicitud debe enviarse como application/json.',
  UNSUPPORTED_DOCUMENT_TYPE:
    'Envíe el PDF tal cual como application/pdf, o su SHA-256 como application/json ({ "sha256": "<hex>" }).',
  UNSUPPORTED_PROOF_TYPE: 'Envíe la imagen tal cual como image/png, image/jpeg o image/webp.',
  UNSUPPORTED_LABEL_TYPE: 'Envíe la etiqueta misma como image/png, image/jpeg o application/pdf.',
  PROOF_LINK_INVALID:
    'Este enlace a una prueba de entrega es incorrecto o ha caducado; abra de nuevo la página de seguimiento para obtener uno nuevo.',
  PROOF_NOT_AN_IMAGE: 'El cuerpo no es una imagen {type} legible de 1 a {max_pixels} píxeles de lado.',
  LABEL_NOT_READABLE: 'El cuerpo no es una etiqueta {type} legible.',
  LABEL_IMAGE_TOO_LARGE:
    'La etiqueta mide {width} × {height} píxeles; se leen como máximo {max_side} píxeles por lado y {max_megapixels} megapíxeles.',
  PROOF_NOT_FOUND: '{proof} no es un archivo de prueba ({kind}) subido para este pedido.',
  VALIDATION_FAILED: 'Algunos campos no son válidos: {fields}.',
  RATE_LIMITED: 'Demasiados intentos. Vuelva a intentarlo dentro de {seconds} segundos.',
  TOO_MANY_STREAMS:
    'Hay demasiados tableros en vivo abiertos para esta empresa ({limit} como máximo); cierre uno y vuelva a intentarlo.',
  INTERNAL_ERROR:
    'Algo falló de nuestro lado. Indique el identificador de solicitud {request_id} si contacta con soporte.',
  ORDER_NOT_FOUND: 'No existe el pedido {order} en esta empresa.',
  ORDER_REF_TAKEN: 'La referencia de pedido {order_ref} ya se usa en esta empresa.',
  ILLEGAL_STATUS_TRANSITION: 'Un pedido en estado {from} no puede pasar a {to}.',
  ORDER_LOCATION_LOCKED:
    'La ubicación {leg} del pedido {order} no puede cambiar mientras está en estado {status}.',
  ORDER_LEG_UNUSED: 'El pedido {order} no tiene dirección {leg} que situar.',
  ADDRESS_NOT_PLACEABLE:
    'Ni los lugares propios de la empresa ni el geocodificador conocen esta dirección: {address}. Envíe lat y lng, o corrija la dirección.',
  CUSTOMER_NOT_FOUND: 'El cliente {customer_id} no es una cuenta de cliente de esta empresa.',
  AMOUNT_TOO_PRECISE: 'El importe {amount} tiene más decimales de los que permite {currency}.',
  DRIVER_NOT_FOUND: 'No existe el conductor {driver} en esta empresa.',
  JOB_NOT_FOUND: 'No hay ningún trabajo con este id entre los del solicitante.',
  SKILL_NOT_FOUND: 'La habilidad {code} no está en el catálogo de habilidades de la empresa.',
  SKILLS_NOT_IN_CATALOGUE:
    'Estas habilidades no están en el catálogo de la empresa: {skills}. Añádalas primero (save_skill).',
  SKILL_IN_USE:
    'La habilidad {code} la tienen {drivers} conductores y la requieren {orders} pedidos abiertos: quítesela primero.',
  SKILL_CATALOGUE_FULL: 'El catálogo admite como máximo {limit} habilidades: elimine una primero.',
  DRIVER_PROFILE_REQUIRED:
    'El conductor {driver} aún no tiene perfil de trabajo: configúrelo primero (set_driver_profile).',
  ROUTE_DRIVER_LACKS_SKILLS:
    'El pedido {order} está en la ruta {route}, cuyo conductor no tiene {skills}: quite el pedido de la ruta o dé primero esas habilidades al conductor.',
  ORDER_SKILLS_LOCKED: 'El pedido {order} está {status}: las habilidades que requería ya no cambian.',
  DEPOT_NOT_FOUND: 'No existe el depósito {depot} en esta empresa.',
  ROUTE_NOT_FOUND: 'No existe la ruta {route} en esta empresa.',
  STOP_NOT_FOUND: 'El pedido {order} no es una parada de la ruta {route}.',
  PACKAGE_NOT_ON_ROUTE: 'El paquete {number} no pertenece a ninguna recogida de la ruta {route}.',
  ROUTE_NOT_STARTED: 'La ruta {route} aún no ha comenzado: iníciela primero.',
  ROUTE_FINISHED: 'La ruta {route} ha terminado: ya no se puede registrar nada en ella.',
  STOP_ALREADY_COMPLETED: 'La parada del pedido {order} en la ruta {route} ya está completada.',
  STOP_IS_LOCKER_DROP:
    'La parada del pedido {order} es una entrega en la taquilla {site}: el depósito con el código de entrega la completa, y la recogida del destinatario entrega el pedido.',
  CLIENT_ID_REUSED: 'El client_id {client_id} ya se usó para otra escritura: cada una necesita el suyo.',
  OUTCOME_NOT_FOR_LEG: 'El resultado {outcome} no corresponde a una parada de tipo {leg}.',
  DEVICE_TIME_BEFORE_ROUTE_START:
    'device_time {device_time} es anterior al inicio de la ruta ({started_at}): el reloj del teléfono puede estar mal.',
  DEVICE_TIME_OUT_OF_RANGE:
    'device_time {device_time} está más de 5 minutos por delante del servidor o tiene más de 7 días.',
  PLAN_VIOLATION:
    'Este cambio incumple {count} regla(s) de planificación que las rutas cumplían; envíe confirm_violations: true para hacerlo de todos modos.',
  STOP_NOT_MOVABLE: 'La parada del pedido {order} ya está {status}: se queda donde está.',
  ROUTE_PAST_MIDNIGHT:
    'La ruta {route} terminaría después de medianoche ({return_time}): una ruta se planifica dentro de su día. Quite paradas o páselas a otra ruta.',
  STOP_NOT_ON_ROUTE: 'El pedido {order} no es una parada de la ruta {route}.',
  ORDER_NOT_PLANNABLE: 'El pedido {order} no está pendiente de planificar el {date}.',
  VEHICLE_NOT_FOUND: 'No existe ningún vehículo activo {vehicle} en esta empresa.',
  SUGGESTION_NOT_FOUND:
    'No hay ninguna sugerencia {suggestion} para el {date} en esta empresa: el día cambió desde que se leyó. Vuelva a leer las sugerencias.',
  SEQUENCE_INVALID:
    'Las paradas indicadas no encajan en la ruta {route}: las posiciones van de {first} a {last} y cada parada pendiente se nombra una vez.',
  DRIVER_WITHOUT_DEPOT: 'El conductor {driver} no tiene un perfil de trabajo con un depósito.',
  DATE_IN_PAST: 'No se pueden crear rutas para el {date}: en esta empresa ya es {today}.',
  CONTRACTOR_RULE_NOT_FOUND: 'No existe la regla de contratista {rule} en esta empresa.',
  CONTRACTOR_NOT_ENGAGED: 'La empresa contratista {company} no trabaja para esta empresa.',
  BUSINESS_REQUIRED: 'Esta cuenta trabaja para varias empresas: indique una con business_id.',
  MODULE_DISABLED: 'El módulo de asignación de pedidos a contratistas no está activado para esta empresa.',
  MODULE_UNAVAILABLE: 'La asignación de pedidos a contratistas aún no está disponible en este sistema.',
  CONTRACTOR_NOT_FOUND: 'Ninguna cuenta de contratista {broker} trabaja para esta empresa.',
  ORDER_ON_ROUTE: 'El pedido {order} está en una ruta; quítelo primero de la ruta.',
  ORDER_NOT_SELF_DELIVERY: 'El pedido {order} no es de entrega propia.',
  ORDER_NOT_ASSIGNABLE:
    'El pedido {order} está en {status}; solo los pedidos nuevos o retenidos se pueden asignar.',
  ORDER_HELD_BY_CARRIER: 'El pedido {order} está en manos del transportista {carrier}.',
  ORDER_NOT_ASSIGNED: 'El pedido {order} no tiene una asignación activa a un contratista.',
  ORDER_ALREADY_ASSIGNED: 'El pedido {order} ya está asignado a este contratista.',
  WEBHOOK_DELIVERY_NOT_FOUND: 'No existe la entrega de webhook {delivery} en esta empresa.',
  WEBHOOK_SECRET_MISSING: 'Guarde primero la configuración de webhooks: aún no hay secreto de firma.',
  WEBHOOK_URL_REFUSED: 'No se puede llamar a esta URL: {reason}',
  PRICE_HIDDEN_SETTLE_OFFLINE:
    'Los precios de los pedidos {family} se liquidan fuera de línea con su proveedor: el pago en línea no está disponible.',
  NOTHING_TO_PAY: 'El pedido {order} no tiene ningún precio que pagar.',
  ORDER_ALREADY_PAID: 'El pedido {order} ya está pagado.',
  DRY_RUN_UNAVAILABLE:
    'Una ejecución de prueba no puede mostrar esto: haría falta {effect}, algo que una ejecución de prueba no hace. Envíe la solicitud sin X-Dry-Run.',
  PAYMENT_DECLINED: 'El pago fue rechazado; no se cobró nada.',
  INSUFFICIENT_CREDIT: 'No hay suficiente crédito en {currency} para pagar este pedido.',
  CARD_TOKEN_REQUIRED: 'El pago con tarjeta necesita un card_token del proveedor de pagos.',
  ID_TOKEN_INVALID: 'El token de identidad del proveedor no es válido para esta aplicación.',
  IDENTITY_NOT_REGISTERED:
    'Ninguna cuenta está vinculada a esta identidad y esta aplicación no registra cuentas nuevas.',
  APP_UNAVAILABLE: 'La aplicación {app} no está disponible para el cliente {client} en este momento.',
  APP_SIGN_IN_REFUSED: 'Esta cuenta no puede iniciar sesión en esta aplicación para este cliente.',
  APP_NOT_FOUND: 'No existe la aplicación {app} para el cliente {client}.',
  IDENTITY_PROVIDER_NOT_FOUND: 'No hay ningún proveedor de identidad {idp} configurado.',
  IDENTITY_PROVIDER_UNREACHABLE: 'No se pudo contactar con el proveedor de identidad {issuer}.',
  GEOCODER_UNAVAILABLE: 'El geocodificador no puede responder ahora: {reason}. Inténtelo más tarde.',
  TRACKING_NOT_FOUND: 'El número de seguimiento {number} no existe.',
  TRACKING_PROVIDER_NOT_FOUND: 'No existe el proveedor de seguimiento activo {provider} en esta empresa.',
  UNKNOWN_FORMAT: 'Formato {format} desconocido. Formatos conocidos: {formats}.',
  PROVIDER_CREDENTIAL_REQUIRED:
    'Envíe una clave de proveedor de seguimiento válida en la cabecera X-OTEP-Provider-Key.',
  OTEP_INVALID: 'Los eventos de seguimiento no son OTEP válido; no se guardó nada.',
  OTEP_TOO_MANY_EVENTS: 'Como máximo {max} eventos por solicitud.',
  ORDER_NOT_ASSIGNED_TO_YOU: 'El pedido {order} no está asignado a usted.',
  SERVICE_UNAVAILABLE: 'El servicio no está disponible temporalmente. Vuelva a intentarlo en breve.',
  CARRIER_NOT_FOUND: 'No existe el transportista activo {carrier} en esta empresa.',
  CARRIER_SERVICE_NOT_FOUND: 'El transportista {carrier} no tiene el servicio {service}.',
  LABEL_NOT_FOUND: 'No hay ninguna etiqueta de envío con el número de seguimiento {number} en esta empresa.',
  RATE_CHANGED: 'La tarifa {rate_id} ya no es válida: vuelva a cotizar y use el nuevo rate_id.',
  RATE_UNAVAILABLE:
    'El transportista {carrier} no puede llevar este envío con el servicio {service} ({reason}).',
  NO_CARRIER_AVAILABLE: 'Ningún servicio de transporte de esta empresa puede llevar este envío.',
  CARRIER_CURRENCY_MISMATCH:
    'Esta tabla de tarifas está en {currency}, pero los demás transportistas de la empresa cotizan en {expected}.',
  ACCOUNT_PENDING_APPROVAL:
    'Esta cuenta espera la aprobación de la empresa. Podrá iniciar sesión cuando sea aprobada.',
  REGISTRATION_NOT_FOUND: 'No existe el registro de conductor {id} en esta empresa.',
  ALREADY_EXISTS: 'Esto entra en conflicto con algo que ya existe.',
  REFERENCE_CONFLICT: 'Esto hace referencia a algo que no existe, o algo más todavía hace referencia a ello.',
  CONCURRENT_UPDATE: 'Otra persona cambió los mismos datos en el mismo momento. Inténtelo de nuevo.',
  INVALID_VALUE: 'Un valor está fuera del rango o la forma que el servicio puede guardar.',
  CONFIRMATION_REQUIRED:
    '{operation} es una acción de alto riesgo: confírmela con confirm=true (herramientas de agente) o la cabecera X-Confirm: 1.',
  FEATURE_DISABLED: '{feature} no está activado para esta empresa.',
  PROPOSAL_NOT_FOUND: 'No hay ninguna propuesta de escritura {id} en esta empresa.',
  PROPOSAL_DECIDED: 'La propuesta de escritura {id} ya está resuelta ({status}).',
  SUGGESTION_WITHOUT_WRITE:
    'La sugerencia {suggestion} no indica ninguna escritura que la resuelva: no hay nada que proponer. Su motivo explica por qué.',
  PROPOSAL_EXPIRED: 'La propuesta de escritura {id} caducó antes de que nadie decidiera.',
  OWN_PROPOSAL:
    'El token que propuso esta escritura no puede aprobarla: debe hacerlo una persona (u otro token).',
  TOOL_NOT_PROPOSABLE:
    '{tool} no se puede proponer: solo las herramientas de escritura del servidor de agentes, y no las de la propia cola de aprobación (decidir corresponde a una persona).',
  POI_NOT_FOUND: 'No hay ningún punto de interés {id} en esta empresa.',
  ALLIANCE_NOT_FOUND: 'No hay ninguna alianza {id} a la que esta empresa pertenezca o esté invitada.',
  ALLIANCE_MEMBER_NOT_FOUND: '{code} no es miembro de esta alianza ni está invitada.',
  ALLIANCE_OWNER_ONLY: 'Solo la empresa propietaria de la alianza puede hacer esto.',
  CLIENT_NOT_ACCESSIBLE: 'Esa empresa no comparte esos datos con la suya.',
  ALLIANCE_ALREADY_MEMBER: 'Esta empresa ya es miembro de la alianza.',
  ALLIANCE_ALREADY_INVITED: 'Esta empresa ya está invitada a la alianza.',
  ALLIANCE_NOT_INVITED:
    'No hay ninguna invitación que rechazar: esta empresa ya es miembro (abandone la alianza en su lugar).',
  ALLIANCE_INVITATION_PENDING: 'Esta empresa solo está invitada: acepte primero la invitación (o recházela).',
  ALLIANCE_OWNER_CANNOT_LEAVE:
    'El propietario no puede salir ni ser retirado mientras haya otras empresas en la alianza: retírelas o disuélvala.',
  ADDRESS_NOT_FOUND: 'No hay ninguna dirección guardada {id} en esta libreta.',
  CSV_UNREADABLE: 'No se puede leer el archivo CSV: {reason}',
  CSV_TOO_LONG: 'El archivo CSV tiene más de {limit} filas; divídalo.',
  DATASET_GROUP_NOT_FOUND: 'No hay ningún grupo de conjuntos de datos {id} en esta empresa.',
  DATASET_NOT_FOUND: 'No hay ningún conjunto de datos {id} en esta empresa.',
  DATASET_RECORD_NOT_FOUND: 'No hay ningún registro {id} en este conjunto de datos.',
  DATASET_GROUP_NOT_EMPTY:
    'El grupo {id} aún contiene {count} conjuntos de datos: muévalos primero o elimínelo con ungroup_datasets.',
  DATASET_SCHEMA_CONFLICT:
    'Los nuevos campos invalidarían {count} registros existentes; details los indica. Cambie esos registros primero.',
  DATASET_FULL: 'El conjunto de datos {id} superaría los {limit} registros.',
  RETURN_REASON_NOT_FOUND: '{code} no es uno de los motivos de devolución de la empresa.',
  SAVED_ADDRESS_NOT_FOUND:
    'No hay ninguna dirección guardada {id} en las libretas de direcciones que este pedido puede usar.',
  RETURN_REASON_REQUIRED: 'Una devolución indica uno de los motivos de devolución de la empresa: {codes}.',
  RETURN_PHOTO_REQUIRED:
    'El motivo de devolución {code} exige una foto: añádala en proof_of_delivery.photo_urls.',
  REGISTRATION_ALREADY_DECIDED: 'El registro de conductor {id} ya está resuelto ({status}).',
  QUERY_TOO_COMPLEX:
    'La consulta pide demasiado: {measure} = {found}, por encima del límite de {limit}. Pida menos en una solicitud (menos alias, páginas más pequeñas, menos anidamiento).',
  WAREHOUSE_NOT_FOUND: 'No hay ningún almacén {id} en esta empresa.',
  WAREHOUSE_LOCATION_NOT_FOUND: 'No hay ninguna ubicación {id} en este almacén.',
  TRANSFER_NOT_FOUND: 'No hay ningún traslado entre almacenes {id} en esta empresa.',
  WAREHOUSE_ROLE_REQUIRED: 'No tiene un rol en el almacén {code}: lo concede un administrador del cliente.',
  PACKAGE_IN_OTHER_WAREHOUSE:
    'El paquete {number} está en otro almacén: trasládelo en lugar de recibirlo aquí.',
  PACKAGE_NOT_IN_WAREHOUSE: 'El paquete {number} no está en este almacén: recíbalo primero.',
  LOCATION_FULL: 'La ubicación {code} está llena: contiene tantos paquetes como permite su capacidad.',
  CAPACITY_BELOW_OCCUPIED:
    'La ubicación {code} contiene {occupied} paquete(s): su capacidad no puede quedar por debajo.',
  LOCATION_IN_USE:
    'La ubicación {code} es el carril de preparación de una ruta de hoy o posterior: sigue siéndolo hasta entonces.',
  STOCK_NOT_ENOUGH: 'No hay suficiente {sku} en ese lugar para moverlo.',
  SCAN_ID_REUSED:
    'El escaneo {scan} ya se usó para otro movimiento en este almacén: dé a cada escaneo su propio identificador.',
  NO_STAGING_LANE: 'Cada carril de preparación de este almacén ya sirve a una ruta el {date}: añada uno.',
  ROUTE_ALREADY_DISPATCHED: 'La ruta {route} ya ha salido: no se puede cargar nada más.',
  TRANSFER_REFUSED: 'El traslado no movió nada: {count} paquete(s) no se pueden mover.',
  TRANSFER_NOT_REVERSIBLE:
    'El traslado {id} no se puede revertir: ya se revirtió, o algunos de sus paquetes se han movido desde entonces.',
  LABEL_IMAGES_NOT_KEPT:
    'Esta empresa no conserva imágenes de etiquetas: envíe el pedido sin la imagen o configure antes keep_label_images_days.',
  SMS_MARKETING_DISABLED: 'El marketing por SMS no está activado para esta empresa.',
  SMS_SUBSCRIBER_NOT_FOUND: 'No hay ningún suscriptor de SMS con este id en la empresa.',
  SMS_LINK_INVALID: 'Este enlace de confirmación no es válido.',
  SMS_WEBHOOK_UNVERIFIED:
    'Esta llamada del proveedor de SMS no está firmada con el secreto del proveedor de la empresa.',
  SMS_SEGMENT_NOT_FOUND: 'No hay ningún segmento SMS {id} aquí.',
  SMS_CAMPAIGN_NOT_FOUND: 'No hay ninguna campaña SMS {id} aquí.',
  SMS_SEGMENT_IN_USE: 'El segmento {id} lo usa la campaña {campaign}, que no ha terminado.',
  SMS_CAMPAIGN_WRONG_STATE: 'La campaña {id} está en estado {status}: no se puede hacer {action} ahora.',
  ORDER_CHAT_CLOSED: 'El chat del pedido {order} está cerrado: vuelva a abrirlo para escribir.',
  CUSTOMER_CHAT_OFF: 'El chat con el cliente no está permitido en el pedido {order}.',
  MAP_NOT_FOUND: 'No hay ningún mapa {id} en esta empresa.',
  MAP_LINK_NOT_FOUND: 'Ningún mapa publicado tiene este enlace: puede haber sido revocado.',
  MAP_LAYER_NOT_FOUND: 'El mapa {map} no tiene la capa {layer}.',
  MAPS_FULL: 'Una empresa guarda como máximo {limit} mapas: elimine uno primero.',
  FLEET_NOT_FOUND: 'No hay ninguna flota {fleet} en esta empresa.',
  FLEET_NAME_TAKEN: 'La empresa ya tiene una flota llamada «{name}».',
  FLEETS_FULL: 'Una empresa guarda como máximo {limit} flotas: elimine una primero.',
  FLEET_CAPTAIN_REQUIRED: 'Solo el personal y los capitanes de la flota {fleet} pueden hacer esto.',
  SHIFT_PATTERN_NOT_FOUND: 'No hay ningún patrón de turnos {pattern} en esta flota.',
  SHIFT_PATTERNS_FULL: 'Una flota guarda como máximo {limit} patrones de turnos: elimine uno primero.',
  SHIFT_NOT_FOUND: 'No hay ningún turno {shift} en esta flota.',
  SHIFT_IN_PAST: 'Un turno el {date} a las {start} ya habría empezado en esta empresa.',
  SHIFT_FULL: 'El turno {shift} no tiene plazas libres: sus {slots} plazas están ocupadas.',
  SHIFT_STARTED: 'El turno {shift} empezó el {date} a las {start}: ya no puede cambiar así.',
  SHIFT_CANCELLED: 'El turno {shift} está cancelado.',
  SHIFT_SLOTS_TAKEN: 'El turno {shift} tiene {signups} conductores inscritos: no puede tener menos plazas.',
  SIGNUP_NOT_FOUND: 'El conductor {driver} no está inscrito en el turno {shift}.',
  SIGNUP_STATE_INVALID: 'Una inscripción no puede pasar de {from} a {to}.',
  ROUTE_ALREADY_CLAIMED: 'Otro conductor tomó primero la ruta {route}. Puede unirse a su lista de espera.',
  ROUTE_NOT_ON_BOARD: 'La ruta {route} no está en ningún tablero de rutas que usted pueda ver.',
  ROUTE_NOT_PUBLISHABLE:
    'La ruta {route} no puede ir a un tablero: solo puede una ruta planificada, con conductor y todas sus paradas pendientes (details.reason dice qué lo impide).',
  ROUTE_ON_BOARD:
    'La ruta {route} está abierta en un tablero de rutas y no tiene conductor: retírela del tablero antes de editarla.',
  BOARD_ROUTE_OPEN: 'La ruta {route} está abierta en el tablero: nadie la tiene, tómela en su lugar.',
  BOARD_ROUTE_HELD: 'Usted ya tiene la ruta {route}.',
  BOARD_WINDOW_OVERLAP:
    'La ruta {route} ({window}) se solapa con la ruta {other} ({other_window}) que el conductor ya tiene ese día.',
  BOARD_OUTSIDE_SHIFT: 'La ruta {route} ({window}) queda fuera del turno del conductor ese día ({shifts}).',
  BOARD_WINDOW_PASSED:
    'La ruta {route} debía salir a las {departure}: ya no se puede tomar ni esperar en cola; un capitán o un despachador aún puede asignarla.',
  BOARD_OFF_SHIFT:
    'El conductor no tiene turno el {date} en el calendario de la flota: la ruta {route} solo se puede tomar un día con turno; un capitán o un despachador aún puede asignarla.',
  WITHDRAWAL_CUTOFF_PASSED:
    'La retirada de la ruta {route} era posible hasta {cutoff}: pídalo a un capitán o a un despachador.',
  SERVICE_ZONE_NOT_FOUND: 'No hay ninguna zona de servicio {id} en esta empresa.',
  SERVICE_ZONES_FULL: 'Una empresa guarda como máximo {limit} zonas de servicio: elimine una primero.',
  RIDER_NOT_GRANTED:
    'Este conductor no es repartidor inmediato: la empresa debe concederle primero la entrega inmediata.',
  OFFER_NOT_FOUND: 'No se le ha hecho ninguna oferta {offer}.',
  OFFER_ALREADY_TAKEN: 'Otro repartidor ya ha tomado el pedido {order}.',
  OFFER_EXPIRED: 'La oferta {offer} ya no está abierta: caducó, se rechazó o se retiró.',
  RIDER_BUSY: 'Aún está con el pedido inmediato {order}: termínelo antes de tomar otro.',
  RIDER_ON_ROUTE: 'Está haciendo la ruta {route}: termínela antes de tomar un pedido inmediato.',
  AGENT_CONVERSATION_NOT_FOUND: 'No tiene ninguna conversación {id} con el agente.',
  AGENT_PROVIDER_NOT_CONFIGURED:
    'No hay ningún proveedor de modelos configurado para el agente de operaciones: defina AGENT_PROVIDER (openai o anthropic), AGENT_API_KEY y, si hace falta, AGENT_MODEL o AGENT_BASE_URL.',
  AGENT_PROVIDER_FAILED:
    'El proveedor de modelos respondió con un error; no se guardó nada. Inténtelo más tarde.',
  AGENT_PROVIDER_TIMEOUT:
    'El proveedor de modelos no respondió a tiempo; no se guardó nada. Inténtelo más tarde.',
  DAILY_CAP_REACHED:
    'Su empresa ha usado sus {cap} turnos de agente de hoy. Habrá turnos de nuevo después de la medianoche local.',
  PACKAGING_NOT_FOUND: 'No hay ningún embalaje {id} en el catálogo de esta empresa.',
  PACKING_PLAN_NOT_FOUND: 'No hay ningún plan de embalaje {id} en esta empresa.',
  LOADING_SPACE_NOT_FOUND:
    'No hay ningún espacio de carga {space}: indique un espacio estándar por su código o uno de la empresa por su id.',
  LOAD_PLAN_NOT_FOUND: 'No hay ningún plan de carga {id} en esta empresa.',
  LOAD_PLAN_ROUTE_GONE:
    'El plan de carga {id} se hizo para la ruta {route}, que una replanificación de su día disolvió: planifique la carga de la ruta en la que están ahora sus pedidos.',
  PACKING_PLAN_INCOMPLETE:
    '{count} piezas de este plan no caben en ninguna caja: un plan solo se convierte en los bultos de un pedido cuando todas las piezas están embaladas.',
  ORDER_PACKAGES_LOCKED:
    'El pedido {order} está en {status}: sus bultos solo pueden sustituirse antes de la recogida.',
  ORDER_TOO_MANY_PACKAGES: 'Un pedido tiene como máximo {max} bultos; este plan tiene {count}.',
  SOLVER_BUSY:
    'Los planificadores están ocupados con otros planes. Inténtelo de nuevo en {seconds} segundos.',
  LABEL_READER_BUSY: 'Los lectores de etiquetas están ocupados. Vuelva a intentarlo en {seconds} segundos.',
  PACKAGING_CATALOG_FULL:
    'Un catálogo de embalajes tiene como máximo {limit} tipos de caja: elimine o reutilice uno primero.',
  LOADING_SPACES_FULL:
    'Una empresa tiene como máximo {limit} espacios de carga propios: elimine uno primero.',
  LOCKER_SITE_NOT_FOUND: 'No hay ningún punto de taquillas {id} que pueda usar.',
  LOCKER_DEVICE_NOT_FOUND: 'No hay ningún dispositivo de taquillas {id} en sus puntos.',
  LOCKER_COMPARTMENT_NOT_FOUND: 'No hay ningún compartimento {id} en sus puntos.',
  LOCKER_BOOKING_NOT_FOUND: 'No hay ninguna reserva de taquilla {id}.',
  LOCKER_NO_COMPARTMENT_FREE: 'Ahora mismo ningún compartimento libre de {site} admite este paquete.',
  LOCKER_QUOTA_EXHAUSTED: 'Su empresa tiene {quota} compartimentos {size} en {site} y todos están en uso.',
  LOCKER_CODE_WRONG: 'Este código no abre el compartimento. Quedan {left} intentos.',
  LOCKER_CODE_LOCKED:
    'Demasiados códigos erróneos: esta reserva está bloqueada. Pida un código nuevo al remitente.',
  LOCKER_CODE_EXPIRED: 'Este código ha caducado: el paquete no se recogió a tiempo.',
  LOCKER_BOOKING_CLOSED: 'Esta reserva de taquilla está {state}: ahora no es posible.',
  LOCKER_NOT_YOUR_HANDOVER:
    'Esta entrega es entre dos personas identificadas y no le corresponde abrirla ahora.',
  LOCKER_COMPARTMENT_BUSY: 'El compartimento ya se está abriendo. Espere un momento.',
  LOCKER_DEVICE_OFFLINE: 'La taquilla {device} está desconectada: ahora no puede abrirse.',
  LOCKER_COMPARTMENT_IN_USE:
    'El compartimento {number} tiene una reserva: solo puede ponerse fuera de servicio libre.',
  LOCKER_NUMBERS_TAKEN: 'Los números de compartimento deben ser únicos en un dispositivo: {numbers}.',
  LOCKER_SITE_FULL: 'Un punto de taquillas tiene como máximo {limit} dispositivos.',
  LOCKER_ORDER_ON_BOARD:
    'El pedido {order} está {status} en su ruta, así que no puede volver al grupo de planificación (solo un pedido PLANNED puede). Envíelo a la taquilla en su ruta (ajuste de despacho locker_reservation: drop_at_locker).',
  LOCKER_SITE_NOT_PLACED:
    'El punto de taquillas {site} no tiene coordenadas, así que la ruta del pedido {order} no puede programarse hasta allí: no se ha reservado nada.',
  LUGGAGE_TAG_TAKEN: 'La etiqueta de equipaje {tag} ya está en un relevo de esta empresa.',
  RESERVATION_RESOURCE_NOT_FOUND: 'No hay ningún recurso reservable {id} aquí.',
  RESERVATION_SLOT_NOT_OFFERED: '{starts_at} no es un horario de este recurso que aún se pueda reservar.',
  RESERVATION_SLOT_FULL: 'Este horario está completo.',
  RESERVATION_NOT_FOUND: 'No existe esa reserva.',
  RESERVATION_CODE_WRONG: 'Este código de confirmación no es el que enviamos.',
  RESERVATION_CODE_EXPIRED: 'El código de confirmación ha caducado: reserve de nuevo.',
  RESERVATION_LINK_INVALID: 'Este enlace de reserva no es válido.',
  RESERVATION_CLOSED: 'Esta reserva está {state}: ahora no es posible.',
  RESERVATION_OFFER_EXPIRED:
    'La plaza ofrecida no se aceptó a tiempo y pasó a la siguiente persona en espera.',
  LOCKER_QUOTA_NOT_FOUND: 'No hay ningún cupo de taquillas {id} ofrecido por su empresa.',
  LUGGAGE_RELAY_NOT_FOUND: 'No hay ningún relevo de equipaje {relay} en esta empresa.',
  TRACKING_PUSH_UNVERIFIED:
    'Esta notificación de seguimiento no está firmada con el secreto de webhook de la empresa.',
  TRACKING_PUSH_REPLAYED:
    'Esta notificación de seguimiento ya se recibió o es demasiado antigua: se rechaza.',
  SUITE_NOT_FOUND: 'No hay ninguna dirección de reenvío {suite} en esta empresa.',
  SUITE_EXISTS: 'Este cliente ya tiene la dirección de reenvío {suite}.',
  INBOUND_PARCEL_NOT_FOUND: 'No hay ningún paquete entrante {parcel} aquí.',
  INBOUND_PARCEL_EXISTS: 'El paquete {carrier} {number} ya está anunciado.',
  INBOUND_PARCEL_STATE: 'El paquete {parcel} está {state}: ahora no es posible.',
  CONSOLIDATION_NOT_FOUND: 'No hay ninguna consolidación {id} aquí.',
  CONSOLIDATION_SHIPPED: 'La consolidación {id} ya está enviada.',
  THIRD_PARTY_CONNECTION_NOT_FOUND: 'No hay ninguna conexión de entrega de terceros {id} en esta empresa.',
  THIRD_PARTY_ORDER_NOT_FOUND: 'No hay ningún pedido de proveedor {id} en esta empresa.',
  THIRD_PARTY_ORDER_DECIDED: 'El pedido de proveedor {id} ya está {state}.',
  THIRD_PARTY_DEADLINE_PASSED:
    'El pedido de proveedor {id} debía aceptarse o rechazarse antes de {accept_by}: ya es tarde.',
  THIRD_PARTY_PUSH_REFUSED: 'Este envío no lleva el token de envío de una conexión activa.',
  THIRD_PARTY_URL_REFUSED: 'No se puede llamar a esta URL de proveedor: {reason}',
  THIRD_PARTY_ADAPTER_UNKNOWN: 'No hay ningún adaptador de proveedor llamado {adapter}.',
  THIRD_PARTY_PROVIDER_FAILED: 'El proveedor {provider} no lo aceptó: {reason}',
  SMS_OFFER_CODE_NOT_FOUND: 'No hay ningún código de oferta así en esta empresa.',
  SMS_OFFER_CODE_EXPIRED: 'Este código de oferta caducó el {expires_at}.',
  SMS_OFFER_CODE_REDEEMED: 'Este código de oferta ya se canjeó el {redeemed_at}.',
};
