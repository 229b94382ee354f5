import type { TranslationMessages } from 'ra-core';

/**
 * Ukrainian translation of react-admin 5.15's built-in messages
 * (same key structure as ra-language-english 5.15).
 *
 * Plurals use polyglot's Ukrainian 3-form syntax: "one |||| few |||| many"
 * (one: 1, 21, 31…; few: 2–4, 22–24…; many: 0, 5–20, 25–30…).
 */
export const raUk: TranslationMessages = {
    ra: {
        action: {
            add_filter: 'Додати фільтр',
            add: 'Додати',
            back: 'Назад',
            bulk_actions:
                'Вибрано %{smart_count} елемент |||| Вибрано %{smart_count} елементи |||| Вибрано %{smart_count} елементів',
            cancel: 'Скасувати',
            clear_array_input: 'Очистити список',
            clear_input_value: 'Очистити значення',
            clone: 'Дублювати',
            confirm: 'Підтвердити',
            create: 'Створити',
            create_item: 'Створити %{item}',
            delete: 'Видалити',
            edit: 'Редагувати',
            export: 'Експортувати',
            list: 'Список',
            refresh: 'Оновити',
            remove_filter: 'Прибрати цей фільтр',
            remove_all_filters: 'Прибрати всі фільтри',
            remove: 'Прибрати',
            reset: 'Скинути',
            save: 'Зберегти',
            search: 'Пошук',
            search_columns: 'Пошук стовпців',
            select_all: 'Вибрати все',
            select_all_button: 'Вибрати все',
            select_row: 'Вибрати цей рядок',
            show: 'Переглянути',
            sort: 'Сортувати',
            undo: 'Скасувати',
            unselect: 'Зняти вибір',
            expand: 'Розгорнути',
            close: 'Закрити',
            open_menu: 'Відкрити меню',
            close_menu: 'Закрити меню',
            update: 'Оновити',
            move_up: 'Перемістити вгору',
            move_down: 'Перемістити вниз',
            open: 'Відкрити',
            toggle_theme: 'Перемкнути світлу/темну тему',
            select_columns: 'Стовпці',
            update_application: 'Перезавантажити застосунок',
        },
        boolean: {
            true: 'Так',
            false: 'Ні',
            null: ' ',
        },
        page: {
            create: 'Створити %{name}',
            dashboard: 'Головна панель',
            edit: '%{name} %{recordRepresentation}',
            error: 'Щось пішло не так',
            list: '%{name}',
            loading: 'Завантаження',
            not_found: 'Не знайдено',
            show: '%{name} %{recordRepresentation}',
            empty: '%{name} поки що відсутні.',
            invite: 'Бажаєте додати?',
            access_denied: 'Доступ заборонено',
            authentication_error: 'Помилка автентифікації',
        },
        input: {
            file: {
                upload_several:
                    'Перетягніть файли для завантаження або клацніть, щоб вибрати.',
                upload_single:
                    'Перетягніть файл для завантаження або клацніть, щоб вибрати його.',
            },
            image: {
                upload_several:
                    'Перетягніть зображення для завантаження або клацніть, щоб вибрати.',
                upload_single:
                    'Перетягніть зображення для завантаження або клацніть, щоб вибрати його.',
            },
            references: {
                all_missing: 'Не вдалося знайти пов’язані дані.',
                many_missing:
                    'Принаймні одне з пов’язаних посилань більше не доступне.',
                single_missing: 'Пов’язане посилання більше не доступне.',
            },
            password: {
                toggle_visible: 'Приховати пароль',
                toggle_hidden: 'Показати пароль',
            },
        },
        message: {
            about: 'Про програму',
            access_denied: 'У вас немає прав доступу до цієї сторінки',
            are_you_sure: 'Ви впевнені?',
            authentication_error:
                'Сервер автентифікації повернув помилку, і ваші облікові дані не вдалося перевірити.',
            auth_error:
                'Під час перевірки токена автентифікації сталася помилка.',
            bulk_delete_content:
                'Ви впевнені, що хочете видалити %{name}? |||| Ви впевнені, що хочете видалити ці %{smart_count} елементи? |||| Ви впевнені, що хочете видалити ці %{smart_count} елементів?',
            bulk_delete_title:
                'Видалити %{name} |||| Видалити %{smart_count} %{name} |||| Видалити %{smart_count} %{name}',
            bulk_update_content:
                'Ви впевнені, що хочете оновити %{name} %{recordRepresentation}? |||| Ви впевнені, що хочете оновити ці %{smart_count} елементи? |||| Ви впевнені, що хочете оновити ці %{smart_count} елементів?',
            bulk_update_title:
                'Оновити %{name} %{recordRepresentation} |||| Оновити %{smart_count} %{name} |||| Оновити %{smart_count} %{name}',
            clear_array_input: 'Ви впевнені, що хочете очистити весь список?',
            delete_content: 'Ви впевнені, що хочете видалити %{name}?',
            delete_title: 'Видалити %{name} %{recordRepresentation}',
            details: 'Подробиці',
            error: 'Сталася помилка на стороні клієнта, і ваш запит не вдалося виконати.',
            invalid_form: 'Форма заповнена некоректно. Перевірте помилки',
            loading: 'Будь ласка, зачекайте',
            no: 'Ні',
            not_found:
                'Ви ввели неправильну URL-адресу або перейшли за хибним посиланням.',
            select_all_limit_reached:
                'Елементів забагато, щоб вибрати їх усі. Вибрано лише перші %{max}.',
            unsaved_changes:
                'Деякі зміни не збережено. Ви впевнені, що хочете їх відкинути?',
            yes: 'Так',
            placeholder_data_warning:
                'Проблема з мережею: не вдалося оновити дані.',
        },
        navigation: {
            clear_filters: 'Очистити фільтри',
            no_filtered_results:
                'За поточними фільтрами нічого не знайдено: %{name}.',
            no_results: 'Нічого не знайдено: %{name}',
            no_more_results:
                'Номер сторінки %{page} поза межами. Спробуйте попередню сторінку.',
            page_out_of_boundaries: 'Номер сторінки %{page} поза межами',
            page_out_from_end: 'Неможливо перейти далі останньої сторінки',
            page_out_from_begin: 'Неможливо перейти перед першою сторінкою',
            page_range_info: '%{offsetBegin}-%{offsetEnd} з %{total}',
            partial_page_range_info:
                '%{offsetBegin}-%{offsetEnd} з понад %{offsetEnd}',
            current_page: 'Сторінка %{page}',
            page: 'Перейти на сторінку %{page}',
            first: 'Перейти на першу сторінку',
            last: 'Перейти на останню сторінку',
            next: 'Перейти на наступну сторінку',
            previous: 'Перейти на попередню сторінку',
            page_rows_per_page: 'Рядків на сторінці:',
            skip_nav: 'Перейти до вмісту',
        },
        sort: {
            sort_by: 'Сортувати за %{field_lower_first} %{order}',
            ASC: 'за зростанням',
            DESC: 'за спаданням',
        },
        auth: {
            auth_check_error: 'Будь ласка, увійдіть, щоб продовжити',
            user_menu: 'Профіль',
            username: 'Ім’я користувача',
            password: 'Пароль',
            email: 'Електронна пошта',
            sign_in: 'Увійти',
            sign_in_error: 'Помилка автентифікації, спробуйте ще раз',
            logout: 'Вийти',
        },
        notification: {
            updated:
                'Елемент оновлено |||| Оновлено %{smart_count} елементи |||| Оновлено %{smart_count} елементів',
            created: 'Елемент створено',
            deleted:
                'Елемент видалено |||| Видалено %{smart_count} елементи |||| Видалено %{smart_count} елементів',
            bad_item: 'Некоректний елемент',
            item_doesnt_exist: 'Елемент не існує',
            http_error: 'Помилка зв’язку з сервером',
            data_provider_error:
                'Помилка dataProvider. Подробиці дивіться в консолі.',
            i18n_error: 'Не вдалося завантажити переклади для вибраної мови',
            canceled: 'Дію скасовано',
            logged_out: 'Ваш сеанс завершено, будь ласка, увійдіть знову.',
            not_authorized: 'У вас немає дозволу на доступ до цього ресурсу.',
            application_update_available: 'Доступна нова версія.',
            offline: 'Немає з’єднання. Не вдалося отримати дані.',
        },
        validation: {
            required: 'Обов’язкове поле',
            minLength: 'Має містити щонайменше %{min} символів',
            maxLength: 'Має містити не більше %{max} символів',
            minValue: 'Має бути не менше %{min}',
            maxValue: 'Має бути не більше %{max}',
            number: 'Має бути числом',
            email: 'Має бути дійсною адресою електронної пошти',
            oneOf: 'Має бути одним із: %{options}',
            regex: 'Має відповідати певному формату (regexp): %{pattern}',
            unique: 'Має бути унікальним',
        },
        saved_queries: {
            label: 'Збережені запити',
            query_name: 'Назва запиту',
            new_label: 'Зберегти поточний запит...',
            new_dialog_title: 'Зберегти поточний запит як',
            remove_label: 'Видалити збережений запит',
            remove_label_with_name: 'Видалити запит «%{name}»',
            remove_dialog_title: 'Видалити збережений запит?',
            remove_message:
                'Ви впевнені, що хочете видалити цей елемент зі списку збережених запитів?',
            help: 'Відфільтруйте список і збережіть цей запит на потім',
        },
        guesser: {
            empty: {
                title: 'Немає даних для відображення',
                message: 'Будь ласка, перевірте ваш data provider',
            },
        },
        configurable: {
            customize: 'Налаштувати',
            configureMode: 'Налаштувати цю сторінку',
            inspector: {
                title: 'Інспектор',
                content:
                    'Наведіть курсор на елементи інтерфейсу застосунку, щоб налаштувати їх',
                reset: 'Скинути налаштування',
                hideAll: 'Приховати все',
                showAll: 'Показати все',
            },
            Datagrid: {
                title: 'Таблиця даних',
                unlabeled: 'Стовпець без назви #%{column}',
            },
            SimpleForm: {
                title: 'Форма',
                unlabeled: 'Поле без назви #%{input}',
            },
            SimpleList: {
                title: 'Список',
                primaryText: 'Основний текст',
                secondaryText: 'Додатковий текст',
                tertiaryText: 'Третинний текст',
            },
        },
    },
};
